// The reference-set checksum (kerchunk/refs/digest.h) that packed files record and verify uses.
#include "kerchunk/refs/digest.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "kerchunk/bench/synthetic_refs.h"
#include "kerchunk/json/kerchunk_json.h"
#include "support/refs_testing.h"

namespace kerchunk {
namespace {

using ::testing::HasSubstr;

TEST(Xxh64Test, MatchesTheReferenceImplementation) {
  // Values from libxxhash 0.8.1 (XXH64), for every code path: < 4, < 8, < 32, >= 32 bytes.
  EXPECT_EQ(Xxh64(""), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(Xxh64("abc"), 0x44BC2CF5AD770999ull);
  std::string s;
  for (int i = 0; i < 100; ++i) s += static_cast<char>('a' + i % 26);
  EXPECT_EQ(Xxh64(s.substr(0, 7)), 0x1860940e2902822dull);
  EXPECT_EQ(Xxh64(s.substr(0, 9)), 0x27f1a34fdbb95e13ull);
  EXPECT_EQ(Xxh64(s.substr(0, 33)), 0x9ac581034b031f72ull);
  EXPECT_EQ(Xxh64(s, 12345), 0xd43028c015d6bbd2ull);
}

TEST(Xxh3Test, MatchesTheReferenceImplementation) {
  // XXH3_64bits with seed 0, from xxHash's own test vectors (sanity_test_vectors.h, 0.8.1).
  EXPECT_EQ(Xxh3(""), 0x2D06800538D394C2ull);
}

TEST(DigestTest, IsIndependentOfOrderUrlIdsAndRepresentation) {
  std::mt19937_64 rng(9);
  ReferenceSet a = testing::RandomReferenceSet(rng);
  std::string json;
  SerializeKerchunkJson(a, WriteOptions{.templates = true}, json);
  auto b = ParseKerchunkJson(json);
  ASSERT_TRUE(b.ok());
  std::reverse(b->entries.begin(), b->entries.end());
  std::reverse(b->arrays.begin(), b->arrays.end());
  EXPECT_EQ(DigestReferences(a), DigestReferences(*b));
  // Both versions have that property, and they hash differently (kcd2 is the default).
  const ReferenceDigest one = DigestReferences(a, DigestVersion::kKcd1);
  EXPECT_EQ(DigestReferences(*b, DigestVersion::kKcd1), one);
  EXPECT_EQ(one.keys, DigestReferences(a).keys);
  EXPECT_NE(one.sum, DigestReferences(a).sum);
  EXPECT_EQ(DigestReferences(a).version, DigestVersion::kKcd2);
  // A chunk held as a plain entry rather than in its array gives the same digest.
  ReferenceSet c;
  c.AddArray("x", *ChunkGrid::Make({2}, {1}));
  uint32_t f = c.urls.Intern("f.nc");
  c.arrays[0].AddRange(0, f, 5, 6);
  ReferenceSet d;
  d.entries.push_back({"x/0", {EntryValue::Kind::kRange, "", d.urls.Intern("f.nc"), 5, 6}});
  EXPECT_EQ(DigestReferences(c), DigestReferences(d));
}

TEST(DigestTest, ChangesWithAnyValue) {
  ReferenceSet base = SyntheticReferenceSet({.files = 1});
  const ReferenceDigest original = DigestReferences(base);
  EXPECT_EQ(original.keys, base.entries.size() + base.ChunkCount());
  ReferenceSet other = base;
  other.SetText("t2m/.zattrs", "{}");
  EXPECT_NE(DigestReferences(other), original);
  ReferenceSet renamed = base;
  ASSERT_TRUE(renamed.urls.Rename(0, "s3://elsewhere/file.nc").ok());
  EXPECT_NE(DigestReferences(renamed), original);
  ReferenceSet inline_kind = base;
  inline_kind.arrays[0].AddInline(99, "x", false);
  ReferenceSet inline_b64 = base;
  inline_b64.arrays[0].AddInline(99, "x", true);
  EXPECT_NE(DigestReferences(inline_kind), DigestReferences(inline_b64));
}

TEST(DigestTest, TextFormRoundTrips) {
  for (DigestVersion version : {DigestVersion::kKcd1, DigestVersion::kKcd2}) {
    ReferenceDigest d{version, 12, 0x0123456789abcdefull, 0xfedcba9876543210ull};
    EXPECT_EQ(d.ToString(),
              fmt::format("kcd{}:12:0123456789abcdeffedcba9876543210", static_cast<int>(version)));
    auto parsed = ReferenceDigest::Parse(d.ToString());
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, d);
  }
  for (const char* bad :
       {"", "kcd1:", "kcd2:12:0123", "kcd3:12:0123456789abcdeffedcba9876543210",
        "kcd2:-1:0123456789abcdeffedcba9876543210", "kcd1:12:0123456789abcdeffedcba987654321g"}) {
    EXPECT_THAT(ReferenceDigest::Parse(bad).status().message(), HasSubstr("expected a checksum"))
        << bad;
  }
}

TEST(SyntheticRefsTest, IsDeterministicAndRealistic) {
  ReferenceSet a = SyntheticReferenceSet(), b = SyntheticReferenceSet();
  EXPECT_EQ(DigestReferences(a), DigestReferences(b));
  EXPECT_GT(a.ChunkCount(), 30000u);
  EXPECT_EQ(a.urls.size(), 31u);
  for (const auto& url : a.urls.urls()) EXPECT_GE(url.size(), 100u);
  double bits = ChunkLengthEntropyBits(a);
  EXPECT_GT(bits, 8.0);  // ~1.1 bytes of information per chunk length
  EXPECT_LT(bits, 10.5);
  const ArrayRefs* sst = a.FindArray("sst");
  ASSERT_NE(sst, nullptr);
  EXPECT_LT(sst->size(), sst->grid().num_chunks());  // land chunks never written
}

}  // namespace
}  // namespace kerchunk
