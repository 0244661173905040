// The generated translation fixture, written once per test program and translated with
// OnUnsupported::kSkip, shared by the translator tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/scan/file_scan.h"
#include "support/hdf5_translate_fixtures.h"
#include "support/test_env.h"

namespace kerchunk::json {
/// Prints JSON values as text in gtest messages.
inline void PrintTo(const Value& v, std::ostream* os) { *os << v.Dump(); }
}  // namespace kerchunk::json

namespace kerchunk::testing {

struct TranslatedFixture {
  TempDir dir;
  std::string path;
  FileScanResult result;
};

/// The fixture file and its translation (asserts on failure).
inline const TranslatedFixture& Translated() {
  static std::unique_ptr<TranslatedFixture> fixture = [] {
    auto f = std::make_unique<TranslatedFixture>();
    auto path = WriteTranslationFixture(f->dir.path());
    EXPECT_TRUE(path.ok()) << path.status().ToString();
    f->path = path.ok() ? *path : "";
    FileScanOptions options;
    options.on_unsupported = OnUnsupported::kSkip;
    auto result = ScanHdf5File(f->path, "translate.h5", options);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (result.ok()) f->result = std::move(*result);
    return f;
  }();
  return *fixture;
}

/// The parsed JSON text of a metadata key ("null" JSON when absent).
inline json::Value MetaJson(const ReferenceSet& refs, std::string_view key) {
  const Entry* e = refs.FindEntry(key);
  if (!e) return json::Value();
  auto v = json::Value::Parse(e->value.data);
  return v.ok() ? *v : json::Value();
}

inline json::Value ParseJson(std::string_view text) {
  auto v = json::Value::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  return v.ok() ? *v : json::Value();
}

}  // namespace kerchunk::testing
