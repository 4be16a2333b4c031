/* A library with 1 KiB of initial-exec thread-locals: loaded with dlopen before the injected
 * runtime, it takes that much of glibc's static TLS reserve for dlopen'ed libraries, as other
 * libraries in a large program (a Python interpreter's extensions) may have done. */
__thread char tls_hog_block[1024] __attribute__((tls_model("initial-exec")));

char *tls_hog(void) {
  return tls_hog_block;
}
