// OpenSSL's libcrypto's C names, redirected to the table loaded when it is first used (see
// util/shared_library.h for why): calls read as ordinary C calls. A name missing here or from the
// table's list is caught by the build: the program is not linked with OpenSSL's libcrypto.
#pragma once

#include "io/crypto_api_table.h"

#define EVP_sha256 (::kerchunk::io::crypto::Api().EVP_sha256)
#define HMAC (::kerchunk::io::crypto::Api().HMAC)
#define SHA256 (::kerchunk::io::crypto::Api().SHA256)
