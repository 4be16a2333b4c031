/* Private to the runtime view: the strict checker both JSON readers use, the telemetry file's
 * (telemetry_schema.c) and the PyTorch view's (torch_load.c, torch_snapshot.c). A field has a
 * name, a type and whether it is required; anything else is an error naming the file and the
 * field ("FILE: sites[3].line: expected ..., found ..."), never a value wrapped or cut. */
#ifndef GM_JSON_SCHEMA_H
#define GM_JSON_SCHEMA_H

#include <jansson.h>
#include <stddef.h>

/* SCHEMA_U32, SCHEMA_I32 and SCHEMA_MS are bounded by what holds them: a line, a column or a
 * percentage is an unsigned int, a device an int, and a time in milliseconds stays within
 * SCHEMA_MAX_MS so that the trace's nanosecond-rounded microseconds never overflow. */
enum schema_type {
  SCHEMA_UINT,
  SCHEMA_INT,
  SCHEMA_NUM,
  SCHEMA_STR,
  SCHEMA_BOOL,
  SCHEMA_ARR,
  SCHEMA_OBJ,
  SCHEMA_UINT_OR_NULL,
  SCHEMA_STR_OR_NULL,
  SCHEMA_INT_OR_NULL,
  SCHEMA_U32,
  SCHEMA_I32,
  SCHEMA_MS,
  SCHEMA_SPAN_MS /* a length of time: SCHEMA_MS's bound, and never negative */
};

/* about 31.7 years; 9.2e12 ms is where the trace's nanoseconds overflow a long long */
#define SCHEMA_MAX_MS 1e12

typedef struct schema_field {
  const char *name;
  enum schema_type type;
  int required;
} schema_field;

typedef struct schema_reader {
  const char *path; /* the file named in messages */
  char *err;
  size_t errlen;
} schema_reader;

/* "PATH: message" into r->err; returns 0. */
int schema_bad(schema_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int schema_type_ok(const json_t *v, enum schema_type t);
/* What v is, for a message: "an object", "a negative integer", "null", ... */
const char *schema_kind(const json_t *v);
/* What t wants ("a non-negative integer"), and what v is: its value when it has the kind t
 * wants but is out of its range ("4294967304"), otherwise its kind ("a string"); buf holds the
 * value. */
const char *schema_expected(enum schema_type t);
const char *schema_found(const json_t *v, enum schema_type t, char *buf, size_t len);
/* Checks obj against fields; `where` names it in messages ("sites[3]"). */
int schema_check(schema_reader *r, const json_t *obj, const char *where, const schema_field *fields,
                 size_t n);
/* Checks every element of arr against t; `where` names the array. */
int schema_check_elements(schema_reader *r, const json_t *arr, const char *where,
                          enum schema_type t);

#endif
