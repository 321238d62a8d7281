package io.agentoutcomes.topology.ingest;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces credential-like text with {@value #REDACTED}: in text that could not be parsed or is copied as it came (a
 * rejected record's value, its Kafka headers, an error message quoting the input), and in the free text of accepted
 * records ({@link FreeTextScrubber}). Values of fields or headers named like a credential ({@code "Authorization":
 * "..."}, {@code 'api_key': '...'}, {@code api_key=...}, {@code x-api-key: ...}), the rest of a {@code Cookie:} or
 * {@code Set-Cookie:} line, and tokens recognisable on their own ({@code Bearer ...}, {@code sk-...} (with OpenAI's
 * masked {@code sk-proj-ab***yz}), {@code sk-ant-...}, JWTs, AWS, GitHub, Slack and Google keys, a URL's
 * {@code key=...}). The text cannot be parsed reliably, so this works on the text, not on a tree.
 * <p>
 * Text with none of the words these patterns need ({@link #triggers}: one pass over the characters) is returned as
 * it is without running any pattern, and only the patterns whose words are there run.
 */
public final class CredentialScrubber {
    public static final String REDACTED = "[redacted]";
    /** {@link #triggers}: a credential's name may be in the text. */
    static final int NAMED = 1;
    /** {@link #triggers}: a cookie header may be. */
    static final int COOKIE = 2;
    /** {@link #triggers}: a token recognisable on its own may be. */
    static final int TOKENS = 4;
    private static final int ALL = NAMED | COOKIE | TOKENS;

    /** A quoted key (JSON's double quotes, or the single quotes of a Python dict's repr) and its value. */
    private static final Pattern QUOTED_FIELD = Pattern.compile(
            "((['\"])([^'\"\\\\\\s]{1,200})\\2\\s*:\\s*)(\"[^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+\"?|'[^'\\\\]*+(?:\\\\.[^'\\\\]*+)*+'?"
                    + "|(?!\\[redacted])[^\\s,}\\]\"']++)");
    /** The rest of a cookie header's line: every cookie in it. */
    private static final Pattern COOKIE_LINE = Pattern.compile("(?i)(?<![\\w-])((?:set-)?cookie\\s*:\\s*)([^\\r\\n\"']+)");
    /** {@code name: } or {@code name=} in free text, before a value ({@link #TEXT_VALUE}). */
    private static final Pattern TEXT_NAME = Pattern.compile("(?<![\\w.-])([A-Za-z][\\w.-]{0,100})\\s*[:=]\\s*");
    /** The value after a {@link #TEXT_NAME}; it may start with an auth scheme. */
    private static final Pattern TEXT_VALUE = Pattern.compile("(?i:(?:bearer|basic|token|digest)\\s+)?+(?!\\[redacted])[^\\s,;&\"'}\\]]+");
    private static final Pattern TOKEN = Pattern.compile(
            "(?i)(?<=\\b(?:bearer|basic)\\s)(?!\\[redacted])[^\\s\"',;}\\]]+"
                    + "|\\bsk-[A-Za-z0-9_*-]{3,}"
                    + "|\\beyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*"
                    + "|\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"
                    + "|\\bgh[pousr]_[A-Za-z0-9]{20,}"
                    + "|\\bxox[abprs]-[A-Za-z0-9-]{10,}"
                    + "|\\bAIza[0-9A-Za-z_-]{30,}"
                    + "|(?<=[?&]key=)[^\\s&#\"']+");
    private static final Pattern CREDENTIAL_NAME = Pattern.compile(
            "(proxy-)?authorization|(set-)?cookie|(.*[-_.])?(php|j)?sess(ion)?([-_.]?(id|token|key|secret))?"
                    + "|.*(secret|password|passwd|pwd|credential|api[-_]?key"
                    + "|access[-_]?key|private[-_]?key|bearer|auth[-_]?token|access[-_]?token|refresh[-_]?token"
                    + "|id[-_]?token|client[-_]?secret).*");

    private CredentialScrubber() {
    }

    /**
     * Whether a field or header of this name (any case) holds a credential. A session's id is one ({@code session},
     * {@code JSESSIONID}, {@code x-session-token}, {@code PHPSESSID}); a name that only starts with it
     * ({@code sessionState}, {@code session_count}) is not.
     */
    public static boolean isCredentialName(String name) {
        return CREDENTIAL_NAME.matcher(name.toLowerCase(Locale.ROOT).trim()).matches();
    }

    /** The text with every credential-like value replaced; the same instance when nothing was found. */
    public static String scrub(String text) {
        int found = triggers(text);
        if (found == 0) {
            return text;
        }
        String scrubbed = text;
        if ((found & NAMED) != 0) {
            scrubbed = replaceNamed(QUOTED_FIELD, scrubbed, 3, 4);
        }
        if ((found & COOKIE) != 0) {
            scrubbed = replaceNamed(COOKIE_LINE, scrubbed, 0, 2);
        }
        if ((found & NAMED) != 0) {
            scrubbed = replaceTextFields(scrubbed);
        }
        if ((found & TOKENS) != 0) {
            Matcher tokens = TOKEN.matcher(scrubbed);
            if (tokens.find()) {
                scrubbed = tokens.replaceAll(REDACTED);
            }
        }
        return scrubbed.equals(text) ? text : scrubbed;
    }

    /** Whether the text has any trigger word ({@link #triggers}); false for most text an agent writes. */
    static boolean mayHoldCredential(String text) {
        return triggers(text) != 0;
    }

    /**
     * Which patterns can match, from the words (any case) they need, in one pass without allocation: a credential's
     * name ({@link #NAMED}: {@code auth}, {@code access}, {@code bearer}, {@code cookie}, {@code credential},
     * {@code key}, {@code passw}, {@code pwd}, {@code refresh}, {@code secret}, {@code sess}, {@code id_token}); a
     * cookie line ({@link #COOKIE}); a token recognisable on its own ({@link #TOKENS}: {@code basic}, {@code bearer},
     * {@code sk-}, {@code eyJ}, {@code akia}, {@code asia}, {@code aiza}, {@code gh?_}, {@code xox}, {@code key}).
     */
    static int triggers(String text) {
        int found = 0;
        int length = text.length();
        for (int i = 0; i < length && found != ALL; i++) {
            char c = text.charAt(i);
            char lower = c < 128 ? (char) (c | 0x20) : Character.toLowerCase(c);
            found |= switch (lower) {
                case 'a' -> at(text, i, "auth") || at(text, i, "access") ? NAMED
                        : at(text, i, "akia") || at(text, i, "asia") || at(text, i, "aiza") ? TOKENS : 0;
                case 'b' -> at(text, i, "bearer") ? NAMED | TOKENS : at(text, i, "basic") ? TOKENS : 0;
                case 'c' -> at(text, i, "cookie") ? NAMED | COOKIE : at(text, i, "credential") ? NAMED : 0;
                case 'e' -> at(text, i, "eyj") ? TOKENS : 0;
                case 'g' -> i + 3 < length && (text.charAt(i + 1) | 0x20) == 'h' && text.charAt(i + 3) == '_' ? TOKENS : 0;
                case 'i' -> at(text, i, "id") && (at(text, i + 2, "token") || at(text, i + 3, "token")) ? NAMED : 0;
                case 'k' -> at(text, i, "key") ? NAMED | TOKENS : 0;
                case 'p' -> at(text, i, "passw") || at(text, i, "pwd") ? NAMED : 0;
                case 'r' -> at(text, i, "refresh") ? NAMED : 0;
                case 's' -> at(text, i, "secret") || at(text, i, "sess") ? NAMED : at(text, i, "sk-") ? TOKENS : 0;
                case 'x' -> at(text, i, "xox") ? TOKENS : 0;
                default -> 0;
            };
        }
        return found;
    }

    private static boolean at(String text, int from, String word) {
        return text.regionMatches(true, from, word, 0, word.length());
    }

    /**
     * The value after each credential's {@code name: } or {@code name=} replaced. Only a name that is a credential's
     * takes its value with it: {@code headers: Authorization: Bearer x} reads on to {@code Authorization}.
     */
    private static String replaceTextFields(String text) {
        Matcher names = TEXT_NAME.matcher(text);
        Matcher values = null;
        StringBuilder out = null;
        int copied = 0;
        while (names.find()) {
            if (names.start() < copied || !isCredentialName(names.group(1))) {
                continue;
            }
            values = values == null ? TEXT_VALUE.matcher(text) : values;
            values.region(names.end(), text.length());
            if (!values.lookingAt()) {
                continue;
            }
            out = out == null ? new StringBuilder(text.length() + 16) : out;
            out.append(text, copied, names.end()).append(REDACTED);
            copied = values.end();
        }
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }

    /**
     * Each match's value group replaced when its name group is a credential's name ({@code nameGroup} 0: every match
     * is one); a value kept in quotes stays in the same quotes.
     */
    private static String replaceNamed(Pattern pattern, String text, int nameGroup, int valueGroup) {
        Matcher matcher = pattern.matcher(text);
        StringBuilder out = null;
        while (matcher.find()) {
            String value = matcher.group(valueGroup);
            char quote = value.charAt(0) == '"' || value.charAt(0) == '\'' ? value.charAt(0) : 0;
            String replacement = quote == 0 ? REDACTED : quote + REDACTED + quote;
            if ((nameGroup == 0 || isCredentialName(matcher.group(nameGroup))) && !value.equals(REDACTED)
                    && !value.equals(replacement)) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 16);
                }
                matcher.appendReplacement(out, Matcher.quoteReplacement(text.substring(matcher.start(), matcher.start(valueGroup))
                        + replacement));
            }
        }
        if (out == null) {
            return text;
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
