# The sitecustomize that gmemlint's shadows (as Debian's /usr/lib/python3.X/sitecustomize.py):
# it must still run, before the shim arms itself.
import os
import sys

if os.environ.get("FAKE_TORCH_LOG"):
    with open(os.environ["FAKE_TORCH_LOG"], "a") as f:
        f.write(f"shadowed sitecustomize (shim loaded: {'gmemlint_torch' in sys.modules})\n")
