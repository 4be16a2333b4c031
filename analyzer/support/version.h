#ifndef GM_VERSION_H
#define GM_VERSION_H
#define GM_VERSION "0.1.0"
#define GM_INFORMATION_URI "https://github.com/gmemlint/gmemlint"
#endif
