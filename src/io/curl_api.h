// libcurl's C names, redirected to the table loaded when it is first used (see
// util/shared_library.h for why): calls read as ordinary C calls. A name missing here or from the
// table's list is caught by the build: the program is not linked with libcurl.
#pragma once

#include "io/curl_api_table.h"

// curl.h wraps these three in macros of the same name (to check the argument count, or the
// argument types with GCC); the redirection replaces them.
#undef curl_easy_getinfo
#undef curl_easy_setopt
#undef curl_share_setopt

#define curl_easy_cleanup (::kerchunk::io::curl::Api().curl_easy_cleanup)
#define curl_easy_getinfo (::kerchunk::io::curl::Api().curl_easy_getinfo)
#define curl_easy_init (::kerchunk::io::curl::Api().curl_easy_init)
#define curl_easy_perform (::kerchunk::io::curl::Api().curl_easy_perform)
#define curl_easy_setopt (::kerchunk::io::curl::Api().curl_easy_setopt)
#define curl_easy_strerror (::kerchunk::io::curl::Api().curl_easy_strerror)
#define curl_global_init (::kerchunk::io::curl::Api().curl_global_init)
#define curl_share_init (::kerchunk::io::curl::Api().curl_share_init)
#define curl_share_setopt (::kerchunk::io::curl::Api().curl_share_setopt)
#define curl_slist_append (::kerchunk::io::curl::Api().curl_slist_append)
#define curl_slist_free_all (::kerchunk::io::curl::Api().curl_slist_free_all)
