// cce-emu stand-in for the Ascend C umbrella header the printed kernels include.
#pragma once
#include "asc_emu.h"
