#pragma once
#define SCALE 4
