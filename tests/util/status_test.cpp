#include "kerchunk/util/status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerchunk {
namespace {

Result<int> Half(int x) {
  if (x % 2) return InvalidArgumentError("expected an even number, got {}", x);
  return x / 2;
}

Result<int> Quarter(int x) {
  KERCHUNK_ASSIGN_OR_RETURN(int h, Half(x));
  return Half(h).Annotate("second halving");
}

TEST(StatusTest, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "ok");
}

TEST(StatusTest, AnnotateAddsContextOnErrorOnly) {
  Status ok;
  ok.Annotate("file.h5");
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.message(), "");
  Status err = DataLossError("truncated");
  err.Annotate("dataset /x").Annotate("file.h5");
  EXPECT_EQ(err.message(), "file.h5: dataset /x: truncated");
  EXPECT_EQ(err.code(), StatusCode::kDataLoss);
  EXPECT_EQ(err.ToString(), "data loss: file.h5: dataset /x: truncated");
}

TEST(StatusTest, AssignOrReturnPropagates) {
  EXPECT_EQ(*Quarter(8), 2);
  auto r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "second halving: expected an even number, got 3");
  EXPECT_EQ(Quarter(5).status().message(), "expected an even number, got 5");
}

}  // namespace
}  // namespace kerchunk
