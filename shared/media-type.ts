// Content-Type checks shared by the render API and the web shell's bridge.

/** `application/json`, exactly, with or without parameters (not `application/json-evil`). */
export function isJson(contentType: string | undefined): boolean {
  return typeof contentType === 'string' && /^application\/json\s*(;|$)/i.test(contentType.trim());
}
