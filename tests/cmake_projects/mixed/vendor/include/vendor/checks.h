#pragma once
#define VENDOR_OK(call) ((call) == cudaSuccess)
