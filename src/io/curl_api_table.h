// libcurl (http, https and s3 files), loaded when first used (see util/shared_library.h for why):
// the table of the functions the project calls. io/curl_api.h redirects their C names to it.
#pragma once

#include <curl/curl.h>

#include "kerchunk/util/status.h"

#define KERCHUNK_CURL_FUNCTIONS(X) \
  X(curl_easy_cleanup)             \
  X(curl_easy_getinfo)             \
  X(curl_easy_init)                \
  X(curl_easy_perform)             \
  X(curl_easy_setopt)              \
  X(curl_easy_strerror)            \
  X(curl_global_init)              \
  X(curl_share_init)               \
  X(curl_share_setopt)             \
  X(curl_slist_append)             \
  X(curl_slist_free_all)

namespace kerchunk::io::curl {

struct CurlApi {
#define KERCHUNK_CURL_MEMBER(name) decltype(&::name) name = nullptr;
  KERCHUNK_CURL_FUNCTIONS(KERCHUNK_CURL_MEMBER)
#undef KERCHUNK_CURL_MEMBER
};

/// Loads libcurl once (later calls return the first outcome). NotFound naming the library
/// when it is not installed. Every entry point that opens a remote file calls it first.
Status LoadLibrary();

/// The table; loads libcurl if no entry point has. Aborts when it cannot be loaded.
const CurlApi& Api();

}  // namespace kerchunk::io::curl
