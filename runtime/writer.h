/* The telemetry writer (writer.c). Private to runtime/. */
#ifndef GMEMRT_WRITER_H
#define GMEMRT_WRITER_H

int gmemrt_write(const char *reason);
void gmemrt_install_handlers(void);

#endif
