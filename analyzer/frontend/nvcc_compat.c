#include "frontend/nvcc_compat.h"

#include "support/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Force-included after clang's __clang_cuda_runtime_wrapper.h (so CUDA_VERSION is known) and
 * before the program's own `-include`s. Declarations only: gmemlint parses, it never compiles.
 * Host declarations are static, so that a program's own host definition of one of them (helper
 * headers define `inline int max(int, int)`) redeclares it instead of conflicting with it. */
const char gm_nvcc_compat_text[] =
    "#pragma clang system_header\n"
    "#ifndef __GMEMLINT_NVCC_COMPAT_H\n"
    "#define __GMEMLINT_NVCC_COMPAT_H\n"
    "#if defined(__cplusplus) && defined(__CUDA__)\n"
    "\n"
    "/* nvcc's version macros, which clang does not define: sources test them in #if and\n"
    " * static_assert. From the toolkit being parsed (CUDA_VERSION 13000 is 13.0). */\n"
    "#if !defined(__CUDACC_VER_MAJOR__) && defined(CUDA_VERSION)\n"
    "#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)\n"
    "#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)\n"
    "#define __CUDACC_VER_BUILD__ 0\n"
    "#endif\n"
    "\n"
    "/* What nvcc's runtime headers include (crt/common_functions.h, crt/math_functions.h), and\n"
    " * sources rely on: printf, FILE, assert, clock without their includes, host isfinite and\n"
    " * isnan from <math.h>, CUB's placement new without <new>. With the resource directory given\n"
    " * (gm_clang_resource_dir), <new> is clang's CUDA wrapper, which adds the device operator "
    "new\n"
    " * and delete. */\n"
    "#include <assert.h>\n"
    "#include <math.h>\n"
    "#include <new>\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "#include <time.h>\n"
    "\n"
    "/* min and max for host code: crt/math_functions.h declares these overloads __host__\n"
    " * __device__; clang's wrapper headers make them device-only. The parentheses keep a\n"
    " * function-like min or max macro out. */\n"
    "#define __GMEMLINT_MINMAX(R, A, B)                                                   \\\n"
    "  static __attribute__((host)) R(min)(A, B);                                      \\\n"
    "  static __attribute__((host)) R(max)(A, B);\n"
    "__GMEMLINT_MINMAX(int, int, int)\n"
    "__GMEMLINT_MINMAX(unsigned int, unsigned int, unsigned int)\n"
    "__GMEMLINT_MINMAX(unsigned int, int, unsigned int)\n"
    "__GMEMLINT_MINMAX(unsigned int, unsigned int, int)\n"
    "__GMEMLINT_MINMAX(long int, long int, long int)\n"
    "__GMEMLINT_MINMAX(unsigned long int, unsigned long int, unsigned long int)\n"
    "__GMEMLINT_MINMAX(unsigned long int, long int, unsigned long int)\n"
    "__GMEMLINT_MINMAX(unsigned long int, unsigned long int, long int)\n"
    "__GMEMLINT_MINMAX(long long int, long long int, long long int)\n"
    "__GMEMLINT_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)\n"
    "__GMEMLINT_MINMAX(unsigned long long int, long long int, unsigned long long int)\n"
    "__GMEMLINT_MINMAX(unsigned long long int, unsigned long long int, long long int)\n"
    "__GMEMLINT_MINMAX(float, float, float)\n"
    "__GMEMLINT_MINMAX(double, double, double)\n"
    "__GMEMLINT_MINMAX(double, float, double)\n"
    "__GMEMLINT_MINMAX(double, double, float)\n"
    "#undef __GMEMLINT_MINMAX\n"
    "/* ... and the named ones, __host__ __device__ there too */\n"
    "static __attribute__((host)) unsigned int(umin)(unsigned int, unsigned int);\n"
    "static __attribute__((host)) unsigned int(umax)(unsigned int, unsigned int);\n"
    "static __attribute__((host)) long long int(llmin)(long long int, long long int);\n"
    "static __attribute__((host)) long long int(llmax)(long long int, long long int);\n"
    "static __attribute__((host)) unsigned long long int(ullmin)(unsigned long long int,\n"
    "                                                            unsigned long long int);\n"
    "static __attribute__((host)) unsigned long long int(ullmax)(unsigned long long int,\n"
    "                                                            unsigned long long int);\n"
    "\n"
    "/* The cache-hinted loads and stores of sm_32_intrinsics.h that clang's own intrinsics lack\n"
    " * (it has __ldg, __ldcg, __ldcs, __ldcv, __stwt), for any type as there (and cuda_fp16.h's\n"
    " * and cuda_bf16.h's exact overloads still win). */\n"
    "template <class _T> __attribute__((device)) _T __ldca(const _T *);\n"
    "template <class _T> __attribute__((device)) _T __ldlu(const _T *);\n"
    "template <class _T, class _V> __attribute__((device)) void __stwb(_T *, _V);\n"
    "template <class _T, class _V> __attribute__((device)) void __stcg(_T *, _V);\n"
    "template <class _T, class _V> __attribute__((device)) void __stcs(_T *, _V);\n"
    "\n"
    "/* The built-in atomics of CUDA 12.8 and later (nvcc knows them, clang does not) and their\n"
    " * order and scope constants, with the values of crt/device_functions.h's enumerations. */\n"
    "#if defined(CUDA_VERSION) && CUDA_VERSION >= 12080\n"
    "#ifndef __NV_ATOMIC_RELAXED\n"
    "#define __NV_ATOMIC_RELAXED 0\n"
    "#define __NV_ATOMIC_CONSUME 1\n"
    "#define __NV_ATOMIC_ACQUIRE 2\n"
    "#define __NV_ATOMIC_RELEASE 3\n"
    "#define __NV_ATOMIC_ACQ_REL 4\n"
    "#define __NV_ATOMIC_SEQ_CST 5\n"
    "#endif\n"
    "#ifndef __NV_THREAD_SCOPE_THREAD\n"
    "#define __NV_THREAD_SCOPE_THREAD 0\n"
    "#define __NV_THREAD_SCOPE_BLOCK 1\n"
    "#define __NV_THREAD_SCOPE_CLUSTER 2\n"
    "#define __NV_THREAD_SCOPE_DEVICE 3\n"
    "#define __NV_THREAD_SCOPE_SYSTEM 4\n"
    "#endif\n"
    "#define __GMEMLINT_NV_ATOMIC_OP(OP)                                                  \\\n"
    "  template <class _T, class _V>                                                   \\\n"
    "  __attribute__((device)) _T __nv_atomic_fetch_##OP(_T *, _V, int,                \\\n"
    "                                                    int = __NV_THREAD_SCOPE_SYSTEM); \\\n"
    "  template <class _T, class _V>                                                   \\\n"
    "  __attribute__((device)) void __nv_atomic_##OP(_T *, _V, int,                    \\\n"
    "                                                int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "__GMEMLINT_NV_ATOMIC_OP(add)\n"
    "__GMEMLINT_NV_ATOMIC_OP(sub)\n"
    "__GMEMLINT_NV_ATOMIC_OP(min)\n"
    "__GMEMLINT_NV_ATOMIC_OP(max)\n"
    "__GMEMLINT_NV_ATOMIC_OP(and)\n"
    "__GMEMLINT_NV_ATOMIC_OP(or)\n"
    "__GMEMLINT_NV_ATOMIC_OP(xor)\n"
    "#undef __GMEMLINT_NV_ATOMIC_OP\n"
    "template <class _T, class _V>\n"
    "__attribute__((device)) _T __nv_atomic_exchange_n(_T *, _V, int,\n"
    "                                                  int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "template <class _T, class _V, class _R>\n"
    "__attribute__((device)) void __nv_atomic_exchange(_T *, _V *, _R *, int,\n"
    "                                                  int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "template <class _T, class _E, class _V>\n"
    "__attribute__((device)) bool __nv_atomic_compare_exchange_n(_T *, _E *, _V, bool, int, int,\n"
    "                                                            int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "template <class _T, class _E, class _V>\n"
    "__attribute__((device)) bool __nv_atomic_compare_exchange(_T *, _E *, _V *, bool, int, int,\n"
    "                                                          int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "template <class _T>\n"
    "__attribute__((device)) _T __nv_atomic_load_n(_T *, int, int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "template <class _T, class _R>\n"
    "__attribute__((device)) void __nv_atomic_load(_T *, _R *, int,\n"
    "                                              int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "template <class _T, class _V>\n"
    "__attribute__((device)) void __nv_atomic_store_n(_T *, _V, int,\n"
    "                                                 int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "template <class _T, class _V>\n"
    "__attribute__((device)) void __nv_atomic_store(_T *, _V *, int,\n"
    "                                               int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "__attribute__((device)) void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM);\n"
    "#endif\n"
    "\n"
    "#endif\n"
    "#endif\n";

struct CXUnsavedFile gm_nvcc_compat_unsaved(void) {
  struct CXUnsavedFile f = {GM_NVCC_COMPAT_PATH, gm_nvcc_compat_text,
                            sizeof gm_nvcc_compat_text - 1};
  return f;
}

int gm_nvcc_compat_is(const char *path) {
  static const char dir[] = "/__gmemlint__/";
  return path && strncmp(path, dir, sizeof dir - 1) == 0;
}

static char *resource_dir;
static pthread_once_t resource_once = PTHREAD_ONCE_INIT;

static void on_probe_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth,
                               CXClientData data) {
  (void)stack;
  char **found = data;
  static const char tail[] = "/include/stddef.h";
  CXString name = clang_getFileName(file);
  const char *s = clang_getCString(name);
  size_t len = s ? strlen(s) : 0, n = sizeof tail - 1;
  if (depth == 1 && !*found && len > n && strcmp(s + len - n, tail) == 0)
    *found = gm_xasprintf("%.*s", (int)(len - n), s);
  clang_disposeString(name);
}

static void probe_resource_dir(void) {
  static const char probe_path[] = "/__gmemlint__/probe.c";
  static const char probe_text[] = "#include <stddef.h>\n";
  struct CXUnsavedFile probe = {probe_path, probe_text, sizeof probe_text - 1};
  /* no standard library directories: <stddef.h> can only be the builtin one */
  const char *args[] = {"-x", "c", "-nostdlibinc"};
  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit tu = NULL;
  if (clang_parseTranslationUnit2(index, probe_path, args, 3, &probe, 1, CXTranslationUnit_None,
                                  &tu) == CXError_Success &&
      tu) {
    clang_getInclusions(tu, on_probe_inclusion, &resource_dir);
    clang_disposeTranslationUnit(tu);
  }
  clang_disposeIndex(index);
  if (resource_dir) {
    /* a <stddef.h> from $CPATH would be no resource directory: clang's own headers tell */
    char *check = gm_xasprintf("%s/include/__clang_cuda_runtime_wrapper.h", resource_dir);
    struct stat st;
    if (stat(check, &st) != 0) {
      free(resource_dir);
      resource_dir = NULL;
    }
    free(check);
  }
}

const char *gm_clang_resource_dir(void) {
  pthread_once(&resource_once, probe_resource_dir);
  return resource_dir;
}
