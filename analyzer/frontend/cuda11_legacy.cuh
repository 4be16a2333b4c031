/* gmemlint's declarations of the CUDA runtime API that CUDA 12 and 13 removed and code written
 * for CUDA 11 still uses, written from the CUDA 11 runtime API documentation: declarations only,
 * for parsing; nothing here is ever compiled into a program. gmemlint force-includes this, after
 * the toolkit's headers, into the parse of a file that needs it (clang's errors name one of these
 * APIs), and says so in a notice. As a system header, its functions borrow their pointer
 * arguments: memory bound to a texture is still the caller's to free. */
#pragma clang system_header
#ifndef __GMEMLINT_CUDA11_LEGACY_H
#define __GMEMLINT_CUDA11_LEGACY_H
#if defined(__cplusplus)
/* A host C++ file reaches this only after a first parse whose errors named these APIs, so it
 * uses the runtime API: its declarations come first (include-guarded, the file's own #include
 * adds nothing). In a CUDA parse clang's wrapper has included them already. */
#ifndef __CUDA__
#include <cuda_runtime_api.h>
#endif

/* Texture and surface references (removed in CUDA 12): the bound state of a module-scope
 * `texture<...>` or `surface<...>`. */
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};

struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};

extern "C" {
__host__ cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref,
                                     const void *devPtr, const struct cudaChannelFormatDesc *desc,
                                     size_t size = ~0u);
__host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref,
                                       const void *devPtr,
                                       const struct cudaChannelFormatDesc *desc, size_t width,
                                       size_t height, size_t pitch);
__host__ cudaError_t cudaBindTextureToArray(const struct textureReference *texref,
                                            cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc *desc);
__host__ cudaError_t cudaBindTextureToMipmappedArray(const struct textureReference *texref,
                                                     cudaMipmappedArray_const_t mipmappedArray,
                                                     const struct cudaChannelFormatDesc *desc);
__host__ cudaError_t cudaUnbindTexture(const struct textureReference *texref);
__host__ cudaError_t cudaGetTextureAlignmentOffset(size_t *offset,
                                                   const struct textureReference *texref);
__host__ cudaError_t cudaGetTextureReference(const struct textureReference **texref,
                                             const void *symbol);
__host__ cudaError_t cudaBindSurfaceToArray(const struct surfaceReference *surfref,
                                            cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc *desc);
__host__ cudaError_t cudaGetSurfaceReference(const struct surfaceReference **surfref,
                                             const void *symbol);

/* The per-thread names of the device management calls (deprecated since CUDA 4, removed in
 * CUDA 12): cudaDeviceReset, cudaDeviceSynchronize, cudaDeviceSetLimit, ... */
__host__ cudaError_t cudaThreadExit(void);
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
__host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
__host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);

/* Double-precision argument conversion for devices without doubles (removed in CUDA 12). */
__host__ cudaError_t cudaSetDoubleForDevice(double *d);
__host__ cudaError_t cudaSetDoubleForHost(double *d);
}

/* CUDA 11's prefetch and advice to a device number (CUDA 13 takes a cudaMemLocation). */
__host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                          cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                   enum cudaMemoryAdvise advice, int device);

#ifdef __CUDA__
/* The texture and surface reference templates of CUDA 11's runtime headers, with their device
 * fetches: CUDA code only. */
template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture : public textureReference {
  __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp);
  __host__ texture(int norm, enum cudaTextureFilterMode fMode,
                   enum cudaTextureAddressMode aMode, struct cudaChannelFormatDesc desc);
};

template <class T, int dim = 1> struct surface : public surfaceReference {
  __host__ surface();
  __host__ surface(struct cudaChannelFormatDesc desc);
};

template <int dim> struct surface<void, dim> : public surfaceReference {
  __host__ surface();
};

template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex,
                                     const void *devPtr, const struct cudaChannelFormatDesc &desc,
                                     size_t size = ~0u);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex,
                                     const void *devPtr, size_t size = ~0u);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                       const struct texture<T, dim, readMode> &tex,
                                       const void *devPtr,
                                       const struct cudaChannelFormatDesc &desc, size_t width,
                                       size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                       const struct texture<T, dim, readMode> &tex,
                                       const void *devPtr, size_t width, size_t height,
                                       size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex,
                                            cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex,
                                            cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTextureToMipmappedArray(const struct texture<T, dim, readMode> &tex,
                                cudaMipmappedArray_const_t mipmappedArray,
                                const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTextureToMipmappedArray(const struct texture<T, dim, readMode> &tex,
                                cudaMipmappedArray_const_t mipmappedArray);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaUnbindTexture(const struct texture<T, dim, readMode> &tex);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaGetTextureAlignmentOffset(size_t *offset,
                                                   const struct texture<T, dim, readMode> &tex);
template <class T, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf,
                                            cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc &desc);
template <class T, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf,
                                            cudaArray_const_t array);

/* What a fetch returns: the element type, or float of its shape when the texture reads
 * normalized (8- and 16-bit integers). */
template <class T, enum cudaTextureReadMode M> struct __gm_tex_result {
  typedef T type;
};
#define __GMEMLINT_NORMALIZED(T, R)                                                               \
  template <> struct __gm_tex_result<T, cudaReadModeNormalizedFloat> {                            \
    typedef R type;                                                                               \
  };
#define __GMEMLINT_NORMALIZED_ALL(S, V)                                                           \
  __GMEMLINT_NORMALIZED(S, float)                                                                 \
  __GMEMLINT_NORMALIZED(V##1, float1)                                                             \
  __GMEMLINT_NORMALIZED(V##2, float2)                                                             \
  __GMEMLINT_NORMALIZED(V##4, float4)
__GMEMLINT_NORMALIZED(signed char, float)
__GMEMLINT_NORMALIZED_ALL(char, char)
__GMEMLINT_NORMALIZED_ALL(unsigned char, uchar)
__GMEMLINT_NORMALIZED_ALL(short, short)
__GMEMLINT_NORMALIZED_ALL(unsigned short, ushort)
#undef __GMEMLINT_NORMALIZED_ALL
#undef __GMEMLINT_NORMALIZED

/* Fetches through a texture reference, in device code. */
#define __GMEMLINT_TEX(NAME, TYPE, ...)                                                           \
  template <class T, enum cudaTextureReadMode M>                                                  \
  __device__ typename __gm_tex_result<T, M>::type NAME(texture<T, TYPE, M> t, __VA_ARGS__);
__GMEMLINT_TEX(tex1Dfetch, cudaTextureType1D, int x)
__GMEMLINT_TEX(tex1D, cudaTextureType1D, float x)
__GMEMLINT_TEX(tex2D, cudaTextureType2D, float x, float y)
__GMEMLINT_TEX(tex3D, cudaTextureType3D, float x, float y, float z)
__GMEMLINT_TEX(tex1DLayered, cudaTextureType1DLayered, float x, int layer)
__GMEMLINT_TEX(tex2DLayered, cudaTextureType2DLayered, float x, float y, int layer)
__GMEMLINT_TEX(texCubemap, cudaTextureTypeCubemap, float x, float y, float z)
__GMEMLINT_TEX(texCubemapLayered, cudaTextureTypeCubemapLayered, float x, float y, float z,
               int layer)
__GMEMLINT_TEX(tex1DLod, cudaTextureType1D, float x, float level)
__GMEMLINT_TEX(tex2DLod, cudaTextureType2D, float x, float y, float level)
__GMEMLINT_TEX(tex3DLod, cudaTextureType3D, float x, float y, float z, float level)
__GMEMLINT_TEX(tex1DGrad, cudaTextureType1D, float x, float dPdx, float dPdy)
__GMEMLINT_TEX(tex2DGrad, cudaTextureType2D, float x, float y, float2 dPdx, float2 dPdy)
__GMEMLINT_TEX(tex3DGrad, cudaTextureType3D, float x, float y, float z, float4 dPdx,
               float4 dPdy)
#undef __GMEMLINT_TEX

/* Reads and writes through a surface reference, in device code. */
#define __GMEMLINT_SURF(DIM, ...)                                                                 \
  template <class T>                                                                              \
  __device__ T surf##DIM##read(surface<void, cudaSurfaceType##DIM> s, __VA_ARGS__,                \
                               enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);         \
  template <class T>                                                                              \
  __device__ void surf##DIM##read(T *res, surface<void, cudaSurfaceType##DIM> s, __VA_ARGS__,     \
                                  enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);      \
  template <class T>                                                                              \
  __device__ void surf##DIM##write(T val, surface<void, cudaSurfaceType##DIM> s, __VA_ARGS__,     \
                                   enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
__GMEMLINT_SURF(1D, int x)
__GMEMLINT_SURF(2D, int x, int y)
__GMEMLINT_SURF(3D, int x, int y, int z)
#undef __GMEMLINT_SURF
#endif /* __CUDA__ */

/* The cudaDeviceProp fields CUDA 12 and 13 removed: the struct as code written for CUDA 11 reads
 * it. Derived from the toolkit's, so that cudaGetDeviceProperties still takes its address. */
struct __gm_cuda11_cudaDeviceProp : public ::cudaDeviceProp {
  int clockRate;
  int deviceOverlap;
  int kernelExecTimeoutEnabled;
  int computeMode;
  int maxTexture1DLinear;
  int memoryClockRate;
  int singleToDoublePrecisionPerfRatio;
  int cooperativeMultiDeviceLaunch;
};
#define cudaDeviceProp __gm_cuda11_cudaDeviceProp

#endif
#endif
