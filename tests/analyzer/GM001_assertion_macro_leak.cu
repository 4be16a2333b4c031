// A unit test's assertion macro returns only when the call it checks failed: the returns inside
// it are failure paths. A buffer allocated before the failing one leaks there (an error-path
// leak), and a buffer never freed leaks on the normal path.
#include <cuda_runtime.h>

struct CheckResult {
  bool ok;
  explicit operator bool() const { return ok; }
};

template <class A, class B>
CheckResult compare_equal(const char *, const char *, const A &a, const B &b) {
  return CheckResult{a == b};
}

#define TEST_ASSERT_EQ(a, b)                                     \
  if (const CheckResult result_ = compare_equal(#a, #b, a, b)) \
    ;                                                            \
  else                                                           \
    return

void second_allocation_fails(size_t n) {
  float *a = nullptr, *b = nullptr;
  TEST_ASSERT_EQ(cudaMalloc(&a, n), cudaSuccess); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'second_allocation_fails' without releasing it; call cudaFree before returning}}
  TEST_ASSERT_EQ(cudaMalloc(&b, n), cudaSuccess); // expected-note {{this return after a failed call leaves without freeing 'a'}}
  cudaFree(b);
  cudaFree(a);
}

void never_freed(size_t n) {
  float *p = nullptr;
  TEST_ASSERT_EQ(cudaMalloc(&p, n), cudaSuccess); // expected-warning {{'p' (device memory from cudaMalloc) is not freed on every path through 'never_freed'; call cudaFree when it is no longer needed}}
  cudaMemset(p, 0, n);
} // expected-note {{'never_freed' ends here without freeing 'p'}}

// The same assertion on a call after the allocation that allocates nothing (gtest's
// `ASSERT_EQ(cudaMemset(d, 0, n), cudaSuccess)`): its return is a path after a failed call,
// as with `if (cudaMemset(..) != cudaSuccess) return`.
void fill_fails(size_t n) {
  float *d = nullptr;
  TEST_ASSERT_EQ(cudaMalloc(&d, n), cudaSuccess); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'fill_fails' without releasing it; call cudaFree before returning}}
  TEST_ASSERT_EQ(cudaMemset(d, 0, n), cudaSuccess); // expected-note {{this return after a failed call leaves without freeing 'd'}}
  cudaFree(d);
}
