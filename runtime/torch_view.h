/* What became of the PyTorch view in a Python process: gmemrun says whether it put the shim on
 * PYTHONPATH (GMEMRT_TORCH_VIEW); the runtime, which alone knows the process is Python, says so
 * on stderr when the view is off, and writes it into the telemetry. */
#ifndef GMEMRT_TORCH_VIEW_H
#define GMEMRT_TORCH_VIEW_H

#include <jansson.h>

/* At start: in a Python process without the shim, one warning on stderr. */
void gmemrt_torch_view_check(void);
/* The telemetry's torch_view object ({"state": "on"|"off", "reason": ...}), or NULL outside
 * Python. */
json_t *gmemrt_torch_view_json(void);

#endif
