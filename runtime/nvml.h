/* NVML sampling (nvml.c). Private to runtime/. */
#ifndef GMEMRT_NVML_H
#define GMEMRT_NVML_H

extern int gmemrt_nvml_available;
void gmemrt_nvml_start(void);
const char *gmemrt_nvml_reason(void);

#endif
