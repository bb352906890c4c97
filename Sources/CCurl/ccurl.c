#include "ccurl.h"

#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static CURLcode init_result = CURLE_FAILED_INIT;

static void global_init(void) {
    init_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

CURLcode ccurl_global_init_once(void) {
    pthread_once(&once, global_init);
    return init_result;
}
