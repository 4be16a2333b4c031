/* The stand-in for libcuda.so's cuInit, in a library of its own (libcuda_sim.so) so that a
 * program's direct call into the driver shows on its stack as the driver's code, apart from the
 * simulated runtime (libsimcudart.so): gmemrun watches the driver's own allocation callbacks
 * only for programs that call the driver themselves. */
#include <cuda.h>

int simcuda_cu_init(void);

CUresult cuInit(unsigned int flags) {
  (void)flags;
  return (CUresult)simcuda_cu_init();
}
