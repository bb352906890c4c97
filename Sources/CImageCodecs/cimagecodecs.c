#include "cimagecodecs.h"
int cimagecodecs_placeholder(void) { return 0; }
