#include "libs/llm/image_content.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace tw::llm {

bool IsSupportedImageType(const std::string& mime_type) {
  return mime_type == "image/png" || mime_type == "image/jpeg" || mime_type == "image/webp" ||
         mime_type == "image/gif";
}

std::string ImageBase64(const ImageContent& image) { return absl::Base64Escape(image.data); }

std::string ImageDataUrl(const ImageContent& image) {
  return absl::StrCat("data:", image.mime_type, ";base64,", ImageBase64(image));
}

std::string ImageOmittedNote(const ImageContent& image) {
  return absl::StrCat("[An image (", image.mime_type, ", ", image.data.size(),
                      " bytes) was returned here, but the configured model does not accept images; "
                      "it was left out.]");
}

}  // namespace tw::llm
