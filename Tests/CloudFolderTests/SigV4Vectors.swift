/// Vectors of AWS's published Signature V4 test suite, copied from the repository
/// github.com/awslabs/aws-c-auth, folder tests/aws-signing-test-suite/v4/<name>/ (files
/// request.txt, context.json, header-canonical-request.txt, header-string-to-sign.txt,
/// header-signature.txt). Every one signs with access key AKIDEXAMPLE, secret
/// wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, region us-east-1, service "service", at
/// 2015-08-30T12:36:00Z. `headers` are the request's own (x-amz-date and the token are added by
/// the signer); `body` is hashed into the payload hash.
struct SigV4Vector: Sendable, CustomStringConvertible {
    var name: String
    var method: String
    var path: String
    var query: [(String, String)] = []
    var headers: [(String, String)]
    var body: String = ""
    var sessionToken: String?
    var canonicalRequest: String
    var stringToSign: String
    var signature: String

    var description: String { name }

    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    static let all: [SigV4Vector] = [
        SigV4Vector(
            name: "get-vanilla", method: "GET", path: "/", headers: [("Host", "example.amazonaws.com")],
            canonicalRequest: "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
                + emptyHash,
            stringToSign: "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                + "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        SigV4Vector(
            name: "get-vanilla-query-order-key-case", method: "GET", path: "/",
            query: [("Param2", "value2"), ("Param1", "value1")], headers: [("Host", "example.amazonaws.com")],
            canonicalRequest: "GET\n/\nParam1=value1&Param2=value2\nhost:example.amazonaws.com\n"
                + "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" + emptyHash,
            stringToSign: "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                + "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
            signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        SigV4Vector(
            name: "get-vanilla-query-unreserved", method: "GET", path: "/",
            query: [
                (
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                )
            ], headers: [("Host", "example.amazonaws.com")],
            canonicalRequest: "GET\n/\n-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz="
                + "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz\nhost:example.amazonaws.com\n"
                + "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" + emptyHash,
            stringToSign: "", signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
        SigV4Vector(
            name: "get-utf8", method: "GET", path: "/\u{1234}", headers: [("Host", "example.amazonaws.com")],
            canonicalRequest: "GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
                + "host;x-amz-date\n" + emptyHash,
            stringToSign: "", signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
        SigV4Vector(
            name: "get-header-value-trim", method: "GET", path: "/",
            headers: [("Host", "example.amazonaws.com"), ("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
            canonicalRequest: "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\n"
                + "x-amz-date:20150830T123600Z\n\nhost;my-header1;my-header2;x-amz-date\n" + emptyHash,
            stringToSign: "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                + "a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7",
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        SigV4Vector(
            name: "get-vanilla-with-session-token", method: "GET", path: "/",
            headers: [("Host", "example.amazonaws.com")],
            sessionToken: "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267",
            canonicalRequest: "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n"
                + "x-amz-security-token:6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267\n\n"
                + "host;x-amz-date;x-amz-security-token\n" + emptyHash,
            stringToSign: "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                + "067b36aa60031588cea4a4cde1f21215227a047690c72247f1d70b32fbbfad2b",
            signature: "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"),
        SigV4Vector(
            name: "post-x-www-form-urlencoded", method: "POST", path: "/",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Host", "example.amazonaws.com"),
                ("Content-Length", "13"),
                ("x-amz-content-sha256", "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e"),
            ], body: "Param1=value1",
            canonicalRequest: "POST\n/\n\ncontent-length:13\ncontent-type:application/x-www-form-urlencoded\n"
                + "host:example.amazonaws.com\n"
                + "x-amz-content-sha256:9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e\n"
                + "x-amz-date:20150830T123600Z\n\n"
                + "content-length;content-type;host;x-amz-content-sha256;x-amz-date\n"
                + "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
            stringToSign: "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                + "b1edd1d03544c25390e32085d55b57acc9a3961bb59415ff86c45c3d89d16cfb",
            signature: "d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b"),
    ]
}
