// DescribePart through the metadata cache that the parts of one combine share: the same view as
// parsing every document, on every thread, and the same errors naming the part.
#include "combine/part_view.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "combine/synthetic_parts.h"

namespace kerchunk::internal {
namespace {

using ::testing::HasSubstr;

void ExpectSameView(const PartView& a, const PartView& b) {
  ASSERT_EQ(a.variables.size(), b.variables.size());
  for (const auto& [path, v] : a.variables) {
    const PartVariable* w = b.Find(path);
    ASSERT_NE(w, nullptr) << path;
    EXPECT_EQ(v.meta.Dump(), w->meta.Dump()) << path;
    EXPECT_EQ(v.attrs.Dump(), w->attrs.Dump()) << path;
    EXPECT_EQ(v.dims, w->dims) << path;
    EXPECT_EQ(v.refs, w->refs) << path;
  }
}

TEST(PartViewTest, CachedDocumentsDescribeEveryPartAsParsingDoes) {
  std::vector<ReferenceSet> parts;
  for (int i = 0; i < 12; ++i) {
    testing::PartSpec spec;
    spec.url = "f" + std::to_string(i) + ".nc";
    spec.times = {double(2 * i), double(2 * i + 1)};
    if (i % 3 == 0) spec.units = "hours since 2000-01-01";  // another .zattrs text
    if (i % 4 == 0) spec.nlat = 5;                          // another .zarray text
    parts.push_back(testing::MakePart(spec));
  }
  PartMetadataCache cache;
  std::vector<std::optional<Result<PartView>>> cached(parts.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < parts.size(); i += 4)
        cached[i].emplace(DescribePart(parts[i], i, &cache));
    });
  }
  for (auto& th : threads) th.join();
  for (size_t i = 0; i < parts.size(); ++i) {
    auto plain = DescribePart(parts[i], i);
    ASSERT_TRUE(plain.ok() && cached[i]->ok()) << i;
    ExpectSameView(*plain, **cached[i]);
    EXPECT_EQ((*cached[i])->label, plain->label);
  }
}

TEST(PartViewTest, AMalformedDocumentIsNamedWithItsPartWhateverIsCached) {
  testing::PartSpec spec;
  spec.times = {0, 1};
  ReferenceSet good = testing::MakePart(spec);
  spec.url = "bad.nc";
  ReferenceSet bad = testing::MakePart(spec);
  bad.SetText("tas/.zarray", R"({"zarr_format": 2, "shape": [2, 3]})");
  ReferenceSet bad_attrs = testing::MakePart(spec);
  bad_attrs.SetText("tas/.zattrs", "[1, 2]");
  PartMetadataCache cache;
  ASSERT_TRUE(DescribePart(good, 0, &cache).ok());
  for (int round = 0; round < 2; ++round) {  // a failed parse is not kept: same error again
    auto r = DescribePart(bad, 1, &cache);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.status().message(), HasSubstr("part 1 (bad.nc)"));
    EXPECT_THAT(r.status().message(), HasSubstr("tas/.zarray"));
    auto a = DescribePart(bad_attrs, 2, &cache);
    ASSERT_FALSE(a.ok());
    EXPECT_THAT(a.status().message(), HasSubstr("part 2 (bad.nc)"));
    EXPECT_THAT(a.status().message(), HasSubstr("expected a JSON object"));
  }
}

}  // namespace
}  // namespace kerchunk::internal
