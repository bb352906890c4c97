#include "cv4l2.h"
int cv4l2_placeholder(void) { return 0; }
