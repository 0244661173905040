#include "kerchunk/util/file_io.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "support/test_env.h"
#include "util/temp_registry.h"

namespace kerchunk {
namespace {

using testing::TempDir;

TEST(FileIoTest, AtomicOutputAppearsOnlyOnCommit) {
  TempDir dir;
  std::string path = dir / "out.json";
  {
    auto out = AtomicOutputFile::Create(path);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE(out->Write("partial").ok());
    EXPECT_FALSE(std::filesystem::exists(path));
  }  // destroyed without Commit
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "temporary file removed";

  ASSERT_TRUE(WriteFileAtomically(path, "complete").ok());
  EXPECT_EQ(*ReadFileToString(path), "complete");
}

// A SIGTERM (Slurm's time limit) or Ctrl-C while an output is being written: the temporary file
// goes, the committed output of an earlier file stays, and the process ends by the signal.
TEST(FileIoTest, SignalRemovesUncommittedTemporaryFiles) {
  for (int signal : {SIGTERM, SIGINT, SIGHUP}) {
    TempDir dir;
    const std::string done = dir / "done.json", partial = dir / "partial.json";
    EXPECT_EXIT(
        {
          RemoveTemporaryOutputsOnSignals();
          (void)WriteFileAtomically(done, "complete");
          auto first = AtomicOutputFile::Create(dir / "first.json");
          auto out = AtomicOutputFile::Create(partial);
          (void)out->Write("partial");
          std::raise(signal);
        },
        ::testing::KilledBySignal(signal), "");
    std::vector<std::string> left;
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
      left.push_back(e.path().filename().string());
    }
    EXPECT_EQ(left, std::vector<std::string>{"done.json"}) << "signal " << signal;
  }
}

// A temporary folder (bench's work directory) goes with everything in it, symbolic links
// removed and not followed.
TEST(FileIoTest, SignalRemovesRegisteredTemporaryFolders) {
  TempDir dir;
  const std::filesystem::path work = dir.path() / "work", keep = dir.path() / "keep.txt";
  std::filesystem::create_directories(work / "a" / "b");
  { std::ofstream(keep) << "outside"; }
  for (int i = 0; i < 300; ++i) {  // more names than one getdents64 buffer holds
    std::ofstream(work / "a" / ("file-with-a-long-name-" + std::to_string(i))) << i;
  }
  { std::ofstream(work / "a" / "b" / "deep.nc") << "x"; }
  std::filesystem::create_symlink(keep, work / "link");
  std::filesystem::create_directory_symlink(dir.path(), work / "up");
  EXPECT_EXIT(
      {
        RemoveTemporaryOutputsOnSignals();
        internal::RegisterTempPath(work.string(), internal::TempKind::kTree);
        std::raise(SIGTERM);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_FALSE(std::filesystem::exists(work));
  EXPECT_EQ(*ReadFileToString(keep.string()), "outside");
}

TEST(FileIoTest, IgnoredSignalStaysIgnored) {  // nohup kerchunk scan ...
  EXPECT_EXIT(
      {
        std::signal(SIGHUP, SIG_IGN);
        RemoveTemporaryOutputsOnSignals();
        std::raise(SIGHUP);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(FileIoTest, OutputErrorsNameThePathNotTheTemporaryFile) {
  auto out = AtomicOutputFile::Create("/nonexistent-folder/out.json");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            "/nonexistent-folder/out.json: cannot create output: No such file or directory");
}

TEST(FileIoTest, MissingFileIsNotFound) {
  TempDir dir;
  auto m = MappedFile::Open(dir / "missing.h5");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kNotFound);
  EXPECT_NE(m.status().message().find("missing.h5"), std::string::npos);
  EXPECT_EQ(FileSize(dir / "missing.h5").status().code(), StatusCode::kNotFound);
}

TEST(FileIoTest, MapsAndReadsRanges) {
  TempDir dir;
  std::string path = dir / "f.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "0123456789").ok());
  auto m = MappedFile::Open(path);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->size(), 10u);
  EXPECT_EQ(static_cast<char>(m->bytes()[3]), '3');
  EXPECT_EQ(*ReadFileRange(path, 2, 3), "234");
  auto past = ReadFileRange(path, 8, 5);
  EXPECT_EQ(past.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(*FileSize(path), 10u);
}

// Small files are read into memory and larger ones mapped: either way the bytes are the file's,
// and they stay valid when the object is moved (into a Result, a vector, another MappedFile).
TEST(FileIoTest, SmallAndLargeFilesGiveTheirBytesAcrossMoves) {
  TempDir dir;
  for (size_t size : {size_t{1}, size_t{15}, size_t{4096}, size_t{128 * 1024},
                      size_t{128 * 1024 + 1}, size_t{1 << 20}}) {
    std::string text(size, '\0');
    for (size_t i = 0; i < size; ++i) text[i] = static_cast<char>((i * 131 + size) % 251);
    const std::string path = dir / ("f" + std::to_string(size));
    ASSERT_TRUE(WriteFileAtomically(path, text).ok());
    auto opened = MappedFile::Open(path);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    MappedFile moved = std::move(*opened);
    MappedFile assigned;
    assigned = std::move(moved);
    const auto bytes = assigned.bytes();
    ASSERT_EQ(bytes.size(), size);
    EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), text)
        << size << " bytes";
    EXPECT_EQ(assigned.path(), path);
  }
}

TEST(FileIoTest, EmptyFileMapsToEmptySpan) {
  TempDir dir;
  std::string path = dir / "empty";
  ASSERT_TRUE(WriteFileAtomically(path, "").ok());
  auto m = MappedFile::Open(path);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->bytes().size(), 0u);
}

}  // namespace
}  // namespace kerchunk
