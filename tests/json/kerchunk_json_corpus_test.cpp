// Corpus test: every reference file Python kerchunk 0.2.2 wrote for ../shared/data parses and
// re-serializes with the same meaning. Skips (no instances) when ../shared is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/file_io.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

std::string Serialize(const ReferenceSet& r) {
  std::string out;
  SerializeKerchunkJson(r, WriteOptions{}, out);
  return out;
}

// Every reference file Python kerchunk wrote for the corpus survives parse -> serialize with the
// same key/value meaning (compared through the tolerant JSON model, independent of our reader).
class ExpectedCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExpectedCorpusTest, RoundTripsEveryKey) {
  auto text = ReadFileToString(GetParam());
  ASSERT_TRUE(text.ok());
  auto parsed = ParseKerchunkJson(*text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto original = json::Value::Parse(*text);
  auto rewritten = json::Value::Parse(Serialize(*parsed));
  ASSERT_TRUE(original.ok() && rewritten.ok());
  const json::Value* a = original->Find("refs");
  const json::Value* b = rewritten->Find("refs");
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->as_object().size(), b->as_object().size());
  for (const auto& [key, value] : a->as_object()) {
    const json::Value* other = b->Find(key);
    ASSERT_NE(other, nullptr) << key;
    if (value.is_string() && value.as_string().starts_with("base64:")) {
      EXPECT_EQ(value, *other) << key;  // same bytes, same standard encoding
    } else {
      EXPECT_EQ(value, *other) << key;
    }
  }
}

std::vector<std::string> ExpectedFiles() {
  std::vector<std::string> files;
  auto dir = testing::ExpectedDir();
  if (!dir) return files;
  for (auto& e : std::filesystem::recursive_directory_iterator(*dir / "data")) {
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

INSTANTIATE_TEST_SUITE_P(Expected, ExpectedCorpusTest, ::testing::ValuesIn(ExpectedFiles()),
                         [](const auto& param_info) {
                           std::string name = std::filesystem::path(param_info.param).filename();
                           for (auto& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name + "_" + std::to_string(param_info.index);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ExpectedCorpusTest);

}  // namespace
}  // namespace kerchunk
