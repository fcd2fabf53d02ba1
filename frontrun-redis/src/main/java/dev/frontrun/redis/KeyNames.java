package dev.frontrun.redis;

import java.nio.charset.StandardCharsets;

/** Renders a key's bytes for resource ids and labels, so that binary keys stay readable and distinct. */
final class KeyNames {

    private KeyNames() {}

    /** The key as text when it is printable UTF-8, else with every other byte as {@code \xNN}. */
    static String render(byte[] key) {
        boolean printable = true;
        for (byte b : key) {
            if (b < 0x20 || b == 0x7f || b == '\\') {
                printable = false;
                break;
            }
        }
        String utf8 = new String(key, StandardCharsets.UTF_8);
        if (printable && java.util.Arrays.equals(utf8.getBytes(StandardCharsets.UTF_8), key)) {
            return utf8;
        }
        StringBuilder s = new StringBuilder();
        for (byte b : key) {
            int c = b & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                s.append((char) c);
            } else {
                s.append(String.format("\\x%02x", c));
            }
        }
        return s.toString();
    }
}
