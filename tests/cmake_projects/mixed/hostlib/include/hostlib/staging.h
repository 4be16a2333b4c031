#pragma once
#include <cuda_runtime.h>
#ifndef HOSTLIB_STAGING_BYTES
#error "HOSTLIB_STAGING_BYTES comes from the target's compile definitions"
#endif
int stage(const void *src);
