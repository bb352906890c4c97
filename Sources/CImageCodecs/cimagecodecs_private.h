#ifndef CIMAGECODECS_PRIVATE_H
#define CIMAGECODECS_PRIVATE_H
/* What the JPEG decoders of this library share: libjpeg's error manager with a jump point and a status. */
#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

#include "cimagecodecs.h"

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int status;
    char message[CIC_MESSAGE_LENGTH];
} cic_jpeg_error;

/* Fatal errors longjmp to error->jump with a CIC_ status; warnings are silent, except a premature end of data,
   which is CIC_ERROR_TRUNCATED (libjpeg would fill the rest with grey and call it a success). */
void cic_jpeg_install_errors(cic_jpeg_error *error);

#endif
