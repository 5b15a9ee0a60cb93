#include "libs/trace/importers/systrace/line_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace tw {
namespace {

// Serves bytes a few at a time, then optionally fails: chunk edges land everywhere.
class TrickleSource : public ChunkSource {
 public:
  TrickleSource(std::string data, size_t step, absl::Status error = absl::OkStatus())
      : data_(std::move(data)), step_(step), error_(std::move(error)) {}
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override {
    if (pos_ == data_.size()) {
      if (!error_.ok()) return error_;
      return size_t{0};
    }
    const size_t n = std::min({capacity, step_, data_.size() - pos_});
    std::memcpy(buf, data_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string data_;
  size_t pos_ = 0;
  size_t step_;
  absl::Status error_;
};

std::vector<std::string> ReadAll(LineReader& reader, absl::Status* error = nullptr) {
  std::vector<std::string> lines;
  TextLine line;
  for (;;) {
    absl::StatusOr<bool> next = reader.Next(&line);
    if (!next.ok()) {
      if (error) *error = next.status();
      break;
    }
    if (!*next) break;
    lines.push_back(line.overlong ? "LONG:" + std::string(line.text.substr(0, 3)) + "..." +
                                        std::string(line.tail.substr(line.tail.size() - 3))
                                  : std::string(line.text));
  }
  return lines;
}

TEST(LineReader, SplitsLinesWhateverTheChunking) {
  const std::string text = "one\r\ntwo\n\nthree";
  for (size_t step : {1, 2, 3, 7, 100}) {
    TrickleSource src(text, step);
    LineReader reader(&src);
    EXPECT_EQ(ReadAll(reader), (std::vector<std::string>{"one", "two", "", "three"})) << step;
    EXPECT_EQ(reader.bytes_read(), static_cast<int64_t>(text.size()));
  }
}

TEST(LineReader, EmptyInput) {
  TrickleSource src("", 4);
  LineReader reader(&src);
  EXPECT_TRUE(ReadAll(reader).empty());
}

TEST(LineReader, OverlongLinesKeepTheirEnds) {
  const std::string long_line = "<x>" + std::string(5000, 'a') + "</script>";
  const std::string text = "a\n" + long_line + "\nb\n" + std::string(3000, 'z');
  TrickleSource src(text, 512);
  LineReader reader(&src, /*max_line_bytes=*/1000);
  EXPECT_EQ(ReadAll(reader),
            (std::vector<std::string>{"a", "LONG:<x>...pt>", "b", "LONG:zzz...zzz"}));
}

TEST(LineReader, AnErrorComesAfterTheCompleteLines) {
  TrickleSource src("a\nb\ncut-off", 3, absl::DataLossError("boom"));
  LineReader reader(&src);
  absl::Status error;
  EXPECT_EQ(ReadAll(reader, &error), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(error.code(), absl::StatusCode::kDataLoss);
  TextLine line;
  EXPECT_FALSE(*reader.Next(&line));  // stays at the end
}

TEST(LineReader, PeekAndTakeRemainder) {
  TrickleSource src("TRACE:\nxyz-rest-of-stream", 5);
  LineReader reader(&src);
  TextLine line;
  ASSERT_TRUE(*reader.Next(&line));
  EXPECT_EQ(line.text, "TRACE:");
  EXPECT_EQ(*reader.Peek(3), "xyz");
  EXPECT_EQ(reader.bytes_consumed(), 7);
  std::unique_ptr<ChunkSource> rest = reader.TakeRemainder();
  std::string all;
  uint8_t buf[4];
  for (;;) {
    absl::StatusOr<size_t> n = rest->Read(buf, sizeof(buf));
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    all.append(reinterpret_cast<char*>(buf), *n);
  }
  EXPECT_EQ(all, "xyz-rest-of-stream");
}

}  // namespace
}  // namespace tw
