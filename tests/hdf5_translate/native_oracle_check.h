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

inline void ExpectNativeMatchesLibrary(const std::string& path, const std::string& url,
                                       FileScanOptions options) {
  options.hdf5_reader = Hdf5Reader::kLibrary;
  auto library = ScanHdf5File(path, url, options);
  // Every file the library reads, the native reader must read alone (no fallback).
  options.hdf5_reader = Hdf5Reader::kNativeOnly;
  auto native = ScanHdf5File(path, url, options);
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
