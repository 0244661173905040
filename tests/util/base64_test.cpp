#include "kerchunk/util/base64.h"

#include <gtest/gtest.h>

#include <random>

namespace kerchunk {
namespace {

TEST(Base64Test, KnownVectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(*Base64Decode("Zm9vYg=="), "foob");
  EXPECT_EQ(*Base64Decode("Zm9vYg"), "foob");
}

TEST(Base64Test, RejectsInvalid) {
  EXPECT_FALSE(Base64Decode("Zm9v!").ok());
  EXPECT_FALSE(Base64Decode("Z").ok());
  EXPECT_FALSE(Base64Decode("Zm 9v").ok());
}

TEST(Base64Test, RandomRoundTrip) {
  std::mt19937 rng(7);
  for (int i = 0; i < 500; ++i) {
    std::string s(rng() % 100, '\0');
    for (auto& c : s) c = static_cast<char>(rng());
    auto back = Base64Decode(Base64Encode(s));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, s);
  }
}

}  // namespace
}  // namespace kerchunk
