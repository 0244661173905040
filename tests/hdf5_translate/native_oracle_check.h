// The check shared by the native-vs-libhdf5 tests: one file translated by both readers must
// give the same Kerchunk JSON text, warnings, unlimited dimensions and referenced bytes, or
// fail on both sides.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/scan/file_scan.h"

namespace kerchunk::testing {

inline std::string KerchunkText(const ReferenceSet& refs) {
  std::string out;
  SerializeKerchunkJson(refs, WriteOptions{}, out);
  return out;
}

/// Files the native reader hands to libhdf5 on purpose, with the reason it gives. The test
/// requires each to still fall back (so the list shrinks as the reader grows) and every other
/// file to translate natively.
inline bool IsKnownFallback(const std::string& url) {
  // Object headers kept only inside a metadata cache image, which the reader does not decode.
  return url == "data/index_types/hdf5/h5clear_mdc_image.h5";
}

inline void ExpectNativeMatchesLibrary(const std::string& path, const std::string& url,
                                       FileScanOptions options) {
  options.hdf5_reader = Hdf5Reader::kLibrary;
  auto library = ScanHdf5File(path, url, options);
  options.hdf5_reader = IsKnownFallback(url) ? Hdf5Reader::kNative : Hdf5Reader::kNativeOnly;
  auto native = ScanHdf5File(path, url, options);
  if (IsKnownFallback(url) && native.ok()) {
    EXPECT_NE(native->hdf5_fallback, "") << "translated natively: remove it from the list";
    native->hdf5_fallback.clear();
    // The fallback says so first among the warnings.
    if (!native->warnings.empty()) native->warnings.erase(native->warnings.begin());
  }
  if (!library.ok()) {
    EXPECT_FALSE(native.ok()) << "libhdf5: " << library.status().ToString()
                              << "\nnative translated the file";
    if (!native.ok()) {
      // Both refuse; the native message is one line and names the file.
      EXPECT_EQ(native.status().message().find('\n'), std::string::npos);
      EXPECT_EQ(native.status().message().rfind(path, 0), 0u) << native.status().ToString();
    }
    return;
  }
  ASSERT_TRUE(native.ok()) << native.status().ToString();
  EXPECT_EQ(KerchunkText(native->refs), KerchunkText(library->refs));
  EXPECT_EQ(native->warnings, library->warnings);
  EXPECT_EQ(native->unlimited_dims, library->unlimited_dims);
  EXPECT_EQ(native->referenced_bytes, library->referenced_bytes);
  EXPECT_EQ(native->hdf5_fallback, "");
}

}  // namespace kerchunk::testing
