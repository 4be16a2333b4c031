/* plain C, no CUDA, with the project's own cuda.h: compiled with the forced header all the same */
#include <stddef.h>
#include "cuda.h"
size_t scratch_bytes(void) { return SCRATCH_BYTES; }
