#include "ccallgrind.h"
