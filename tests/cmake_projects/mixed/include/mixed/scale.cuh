#pragma once
#ifndef MIXED_REAL
#error "MIXED_REAL comes from the target's compile definitions"
#endif
typedef MIXED_REAL mixed_real;
__global__ void scale(mixed_real *x, mixed_real by, int n);
