// Modes of everything the server keeps at rest (scripts in studio.db, creators' files, rendered
// videos): readable by the account the server runs as and no one else, whatever the umask.
export const OWNER_FILE_MODE = 0o600;
export const OWNER_DIR_MODE = 0o700;
