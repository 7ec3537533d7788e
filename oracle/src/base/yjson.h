/* yjson.h: ydoc trees and JSON values (jansson), both ways: a case's cards
 * and steps as written go to engines as JSON (ci/protocol/PROTOCOL.md), and
 * what `serve` receives as JSON is read by the same loader as a file. */
#ifndef ZO_YJSON_H
#define ZO_YJSON_H

#include "ydoc.h"

struct json_t;

/* Node n as a new JSON value (the caller's: json_decref): a map is an
 * object with its keys in order, a sequence an array, a plain scalar that
 * reads as null, true, false or a whole number that value, any other
 * scalar a string. */
struct json_t *yd_to_json(const yd_node *n);

/* yd_to_json as compact text, keys in order (malloc'd; "null" when jansson
 * cannot encode it). */
char *yd_to_json_text(const yd_node *n);

/* JSON value j as a new ydoc tree, every node at 1:1: an object is a map,
 * an array a sequence, a string a quoted scalar, a number, true, false or
 * null a plain scalar. The caller owns it: the root of a yd_doc that
 * yd_free releases. */
yd_node *yd_from_json(struct json_t *j);

#endif
