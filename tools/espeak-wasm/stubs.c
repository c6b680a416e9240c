/* WASI has no temporary file names; espeak-ng only asks for one to convert a sound icon, which
 * Presenter Studio never uses. Copyright (C) 2026 Presenter Studio contributors. GPL-3.0-or-later. */
#include <stddef.h>
char *tmpnam(char *s);
char *tmpnam(char *s) { (void)s; return NULL; }
