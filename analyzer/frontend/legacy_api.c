/* Which clang errors name an API of the legacy layer (legacy_api.h). */
#include "frontend/legacy_api.h"

#include <stdio.h>
#include <string.h>

/* Declared by cuda11_legacy.cuh and absent from the toolkit since CUDA 12 (the templates are
 * shown with their arguments elided). */
static const char *const removed[] = {"texture",
                                      "surface",
                                      "textureReference",
                                      "surfaceReference",
                                      "cudaBindTexture",
                                      "cudaBindTexture2D",
                                      "cudaBindTextureToArray",
                                      "cudaBindTextureToMipmappedArray",
                                      "cudaUnbindTexture",
                                      "cudaGetTextureAlignmentOffset",
                                      "cudaGetTextureReference",
                                      "cudaBindSurfaceToArray",
                                      "cudaGetSurfaceReference",
                                      "cudaThreadExit",
                                      "cudaThreadSynchronize",
                                      "cudaThreadSetLimit",
                                      "cudaThreadGetLimit",
                                      "cudaThreadGetCacheConfig",
                                      "cudaThreadSetCacheConfig",
                                      "cudaSetDoubleForDevice",
                                      "cudaSetDoubleForHost"};

/* Still declared, with another signature: only "no matching function" is about the old one
 * (the fetches are declared for texture objects too). */
static const char *const changed[] = {"cudaMemPrefetchAsync",
                                      "cudaMemAdvise",
                                      "tex1Dfetch",
                                      "tex1D",
                                      "tex2D",
                                      "tex3D",
                                      "tex1DLayered",
                                      "tex2DLayered",
                                      "texCubemap",
                                      "texCubemapLayered",
                                      "tex1DLod",
                                      "tex2DLod",
                                      "tex3DLod",
                                      "tex1DGrad",
                                      "tex2DGrad",
                                      "tex3DGrad",
                                      "surf1Dread",
                                      "surf2Dread",
                                      "surf3Dread",
                                      "surf1Dwrite",
                                      "surf2Dwrite",
                                      "surf3Dwrite"};

/* Fields of cudaDeviceProp removed in CUDA 12 and 13. */
static const char *const fields[] = {"clockRate",
                                     "deviceOverlap",
                                     "kernelExecTimeoutEnabled",
                                     "computeMode",
                                     "maxTexture1DLinear",
                                     "memoryClockRate",
                                     "singleToDoublePrecisionPerfRatio",
                                     "cooperativeMultiDeviceLaunch"};

static int listed(const char *const *list, size_t n, const char *s, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
      return 1;
  return 0;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int gm_legacy_api_named(const char *message, char *name, size_t size) {
  const char *open = strchr(message, '\'');
  const char *close = open ? strchr(open + 1, '\'') : NULL;
  if (!close)
    return 0;
  const char *s = open + 1;
  size_t len = (size_t)(close - s);
  if (strncmp(message, "no member named ", 16) == 0) {
    /* "... in 'cudaDeviceProp'", "... in 'struct cudaDeviceProp'" */
    if (!strstr(close, "cudaDeviceProp'") || !listed(fields, COUNT(fields), s, len))
      return 0;
    snprintf(name, size, "cudaDeviceProp::%.*s", (int)len, s);
    return 1;
  }
  if (strncmp(message, "no matching function for call to ", 33) == 0 &&
      listed(changed, COUNT(changed), s, len)) {
    snprintf(name, size, "%.*s", (int)len, s);
    return 1;
  }
  if (!listed(removed, COUNT(removed), s, len))
    return 0;
  int is_template = strncmp(message, "no template named ", 18) == 0;
  snprintf(name, size, "%.*s%s", (int)len, s, is_template ? "<...>" : "");
  return 1;
}
