/* error.h: the library's one error convention. A fallible call returns a
 * zo_status (ZO_OK == 0) and fills the caller's optional zo_error (zo.h)
 * through zo_error_set, adds what it was doing through zo_error_note, and,
 * in the engines layer, the kind of an engine's failure through
 * zo_error_fault; nothing else writes a zo_error. A call that does not
 * apply says so by its status and a message, never by an empty one. The library never prints. Running out of
 * memory is not an error a caller handles: util.h's zo_x* allocators call
 * the one out-of-memory handler (zo_oom), which does not return. */
#ifndef ZO_ERROR_H
#define ZO_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#include "zo.h"

/* Fill err (when not NULL) with code, where (file may be NULL or "" and
 * line/column 0 when unknown; both 1-based) and a printf message, cut at a
 * character boundary to fit and always valid UTF-8; the note is cleared.
 * Returns code, so a failure reads `return zo_error_set(err, ...)`. */
zo_status zo_error_set(zo_error *err, zo_status code, const char *file, int line, int column,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* The same with a va_list. */
zo_status zo_error_setv(zo_error *err, zo_status code, const char *file, int line, int column,
                        const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 0)))
#endif
    ;

/* Set err's note (its context: "while reading step 2"), when err is not
 * NULL; the code, position and message stay. */
void zo_error_note(zo_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Set err's engine fault kind (a zo_engine_fault of engine.h, 0 none),
 * when err is not NULL, after zo_error_set (which clears it). */
void zo_error_fault(zo_error *err, int fault);

#endif
