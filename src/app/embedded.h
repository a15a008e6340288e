/* embedded.h — the .roof files of stdlib/, compiled into the binary by tools/embed.sh. */
#ifndef ROOFLINE_EMBEDDED_H
#define ROOFLINE_EMBEDDED_H

#include <stddef.h>

typedef struct {
    const char *name; /* "chips.roof" */
    const char *text;
    size_t len;
} StdlibFile;

/* Terminated by an entry whose name is NULL. */
extern const StdlibFile stdlib_files[];

#endif
