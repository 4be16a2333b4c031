#include "runtime_view/json_schema.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

const char *schema_kind(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    return "an object";
  case JSON_ARRAY:
    return "an array";
  case JSON_STRING:
    return "a string";
  case JSON_INTEGER:
    return json_integer_value(v) < 0 ? "a negative integer" : "an integer";
  case JSON_REAL:
    return "a number with a fraction";
  case JSON_TRUE:
  case JSON_FALSE:
    return "a boolean";
  case JSON_NULL:
    return "null";
  }
  return "something else";
}

int schema_type_ok(const json_t *v, enum schema_type t) {
  int uint = json_is_integer(v) && json_integer_value(v) >= 0;
  switch (t) {
  case SCHEMA_UINT:
    return uint;
  case SCHEMA_UINT_OR_NULL:
    return json_is_null(v) || uint;
  case SCHEMA_INT:
    return json_is_integer(v);
  case SCHEMA_INT_OR_NULL:
    return json_is_null(v) || json_is_integer(v);
  case SCHEMA_NUM:
    return json_is_number(v);
  case SCHEMA_U32:
    return uint && json_integer_value(v) <= UINT_MAX;
  case SCHEMA_I32:
    return json_is_integer(v) && json_integer_value(v) >= INT_MIN &&
           json_integer_value(v) <= INT_MAX;
  case SCHEMA_MS:
    return json_is_number(v) && json_number_value(v) >= -SCHEMA_MAX_MS &&
           json_number_value(v) <= SCHEMA_MAX_MS;
  case SCHEMA_SPAN_MS:
    return json_is_number(v) && json_number_value(v) >= 0 && json_number_value(v) <= SCHEMA_MAX_MS;
  case SCHEMA_STR:
    return json_is_string(v);
  case SCHEMA_STR_OR_NULL:
    return json_is_null(v) || json_is_string(v);
  case SCHEMA_BOOL:
    return json_is_boolean(v);
  case SCHEMA_ARR:
    return json_is_array(v);
  case SCHEMA_OBJ:
    return json_is_object(v);
  }
  return 0;
}

const char *schema_expected(enum schema_type t) {
  static const char *const names[] = {[SCHEMA_UINT] = "a non-negative integer",
                                      [SCHEMA_INT] = "an integer",
                                      [SCHEMA_NUM] = "a number",
                                      [SCHEMA_STR] = "a string",
                                      [SCHEMA_BOOL] = "true or false",
                                      [SCHEMA_ARR] = "an array",
                                      [SCHEMA_OBJ] = "an object",
                                      [SCHEMA_UINT_OR_NULL] = "a non-negative integer or null",
                                      [SCHEMA_STR_OR_NULL] = "a string or null",
                                      [SCHEMA_INT_OR_NULL] = "an integer or null",
                                      [SCHEMA_U32] = "a non-negative integer up to 4294967295",
                                      [SCHEMA_I32] = "an integer from -2147483648 to 2147483647",
                                      [SCHEMA_MS] = "a number of milliseconds from -1e12 to 1e12",
                                      [SCHEMA_SPAN_MS] = "a number of milliseconds from 0 to 1e12"};
  return names[t];
}

const char *schema_found(const json_t *v, enum schema_type t, char *buf, size_t len) {
  int bounded_int = (t == SCHEMA_U32 || t == SCHEMA_I32) && json_is_integer(v);
  if (bounded_int && (t == SCHEMA_I32 || json_integer_value(v) >= 0)) {
    snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    return buf;
  }
  if ((t == SCHEMA_MS || t == SCHEMA_SPAN_MS) && json_is_number(v)) {
    snprintf(buf, len, "%g", json_number_value(v));
    return buf;
  }
  return schema_kind(v);
}

int schema_bad(schema_reader *r, const char *fmt, ...) {
  int n = snprintf(r->err, r->errlen, "%s: ", r->path);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < r->errlen)
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return 0;
}

int schema_check(schema_reader *r, const json_t *obj, const char *where, const schema_field *fields,
                 size_t n) {
  if (!json_is_object(obj))
    return schema_bad(r, "%s: expected an object, found %s", where, schema_kind(obj));
  for (size_t i = 0; i < n; i++) {
    const json_t *v = json_object_get(obj, fields[i].name);
    if (!v) {
      if (fields[i].required)
        return schema_bad(r, "%s: missing \"%s\"", where, fields[i].name);
      continue;
    }
    char value[32];
    if (!schema_type_ok(v, fields[i].type))
      return schema_bad(r, "%s.%s: expected %s, found %s", where, fields[i].name,
                        schema_expected(fields[i].type),
                        schema_found(v, fields[i].type, value, sizeof value));
  }
  return 1;
}

int schema_check_elements(schema_reader *r, const json_t *arr, const char *where,
                          enum schema_type t) {
  size_t i;
  const json_t *v;
  char value[32];
  json_array_foreach(arr, i, v) {
    if (!schema_type_ok(v, t))
      return schema_bad(r, "%s[%zu]: expected %s, found %s", where, i, schema_expected(t),
                        schema_found(v, t, value, sizeof value));
  }
  return 1;
}
