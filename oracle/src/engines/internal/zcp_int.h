/* internal/zcp_int.h: what the files of the engines layer share and
 * nothing above them sees: text an engine gave made fit for messages, and
 * the one way an engine's failure fills a zo_error. */
#ifndef ZO_ZCP_INT_H
#define ZO_ZCP_INT_H

#include <stddef.h>

#include "engine.h"

/* Append n bytes of src to the NUL-terminated string in dst (cap > 0 bytes
 * in all) as one line of valid UTF-8: a byte that is not part of a UTF-8
 * character becomes \xNN, a control character (newline and tab included)
 * a space. Stops before the first character or escape that would not fit,
 * so dst never ends inside one. Text already written this way is copied
 * unchanged. */
void zcp_text_put(char *dst, size_t cap, const char *src, size_t n);

/* dst (cap > 0 bytes) = src (NULL: "") as zcp_text_put writes it. */
void zcp_text_set(char *dst, size_t cap, const char *src);

/* Fill err (when not NULL) for a failure of the engine `who` (its command
 * or plugin path) through base/error.h: code ZO_ERR_ENGINE, who as the
 * file and what as the message (both as zcp_text_set writes them, cut to
 * fit), no position, fault's word as the note (none for
 * ZO_ENGINE_FAULT_NONE) and fault in err->engine_fault. Returns
 * ZO_ERR_ENGINE. */
zo_status zcp_fault(zo_error *err, zo_engine_fault fault, const char *who, const char *what);

/* zcp_fault with a printf message (formatted into 600 bytes first). */
zo_status zcp_faultf(zo_error *err, zo_engine_fault fault, const char *who, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
