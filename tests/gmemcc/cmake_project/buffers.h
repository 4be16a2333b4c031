#pragma once
#include <stddef.h>
float *make_buffer(size_t n);
void drop_buffer(float *p);
