#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H
/* JPEG (libjpeg-turbo) and PNG (libpng) with setjmp error handling kept in C. */
int cimagecodecs_placeholder(void);
#endif
