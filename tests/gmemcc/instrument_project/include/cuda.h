/* The project's own cuda.h (not the toolkit's), on the -I path of cxx_app: the instrumented
 * build must not take it for the toolkit's. */
#ifndef INSTRUMENT_SAMPLE_CUDA_H
#define INSTRUMENT_SAMPLE_CUDA_H
#define SCRATCH_BYTES 256
#endif
