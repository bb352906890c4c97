// CCurl: the parts of libcurl facecap's HTTP validator uses, callable from Swift.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call, so each argument type
// gets a typed wrapper. Only static inline wrappers here; the one-time global set-up is in ccurl.c.
#ifndef FACECAP_CCURL_H
#define FACECAP_CCURL_H

#include <curl/curl.h>

// curl_global_init, exactly once per process and safe to call from any thread (libcurl 7.88's own is
// not thread-safe); returns its CURLcode.
CURLcode ccurl_global_init_once(void);

// The callback types Swift hands to libcurl (CURLOPT_WRITEFUNCTION / HEADERFUNCTION / XFERINFOFUNCTION).
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*ccurl_xferinfo_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                       curl_off_t upload_total, curl_off_t upload_now);

// curl_easy_setopt with a long (flags, timeouts in ms, sizes that fit a long).
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

// curl_easy_setopt with a curl_off_t (CURLOPT_POSTFIELDSIZE_LARGE).
static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

// curl_easy_setopt with a string (libcurl copies it) or a data pointer (kept by the caller).
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

// curl_easy_setopt with a header list (CURLOPT_HTTPHEADER).
static inline CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

// curl_easy_setopt with a body or header callback.
static inline CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

// curl_easy_setopt(CURLOPT_XFERINFOFUNCTION): progress, and the way to abort a transfer (return non-zero).
static inline CURLcode ccurl_setopt_xferinfo(CURL *handle, ccurl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

// curl_easy_getinfo for a long (CURLINFO_RESPONSE_CODE, CURLINFO_OS_ERRNO).
static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

// curl_easy_getinfo for a curl_off_t (CURLINFO_CONNECT_TIME_T, microseconds).
static inline CURLcode ccurl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
