// A random agent for detente's agent protocol, version 1, in Java (one file, no libraries).
//
//   javac -d build ops/examples/agents/java/RandomAgent.java
//   detente play dominoes --seed 5 --agents 'exec:cmd=["java","-cp","build","RandomAgent"]'
//
// detente starts it as a child process and writes one JSON object a line on its stdin; it answers
// every request with exactly one JSON line on stdout (debug output goes to stderr only), and exits
// on {"kind":"bye"} or at the end of stdin. It plays any seat of any game with a uniformly random
// legal action. java.util.Random is specified bit for bit by the Java platform, and it is seeded
// from the game's seed, seat and role (game_start), so the same game gets the same answers on
// every machine. A small JSON reader and writer are at the bottom of the file.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public final class RandomAgent {
    static final String NAME = "random-java";
    static final String VERSION = "1.0.0";

    private final PrintWriter out =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
    private Random rng = new Random(0);

    public static void main(String[] args) throws IOException {
        new RandomAgent().run();
    }

    void run() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> msg = Json.object(Json.parse(line));
            String kind = String.valueOf(msg.get("kind"));
            switch (kind) {
                case "hello":
                    System.err.println(NAME + ": serving " + msg.get("address") + " as " + msg.get("role"));
                    Map<String, Object> plays = new LinkedHashMap<>();
                    plays.put("games", List.of("*"));
                    plays.put("roles", List.of("player", "so", "fo", "io"));
                    send(map("kind", "hello", "protocol", 1L, "name", NAME, "version", VERSION,
                             "plays", plays, "talks", Boolean.FALSE));
                    break;
                case "game_start":
                    rng = new Random(seedOf(msg));
                    break;
                case "game_end":
                    break;
                case "bye":
                    return;
                default:
                    send(answer(kind, msg));
            }
        }
    }

    /** The answer to one request: a list of messages (detente fills in sender and recipient). */
    List<Object> answer(String kind, Map<String, Object> msg) {
        List<Object> answer = new ArrayList<>();
        Object turn = msg.get("turn");
        switch (kind) {
            case "act_request": {
                List<Object> legal = Json.array(msg.get("legal"));
                if (!legal.isEmpty()) {
                    answer.add(map("kind", "act", "turn", turn, "action", legal.get(rng.nextInt(legal.size()))));
                }
                break;
            }
            case "talk_turn":
                answer.add(map("kind", "talk", "turn", turn, "channel", msg.get("channel"), "round", msg.get("round"),
                               "says", List.of()));
                break;
            case "office_request":
                answer.add(map("kind", "office_reply", "task", msg.get("task"), "turn", turn, "says", List.of(),
                               "updates", List.of()));
                break;
            default: // heard, and any request kind this agent does not know
                break;
        }
        return answer;
    }

    /** A 64-bit seed from the game's seed, seat and role (FNV-1a over their text). */
    static long seedOf(Map<String, Object> msg) {
        String text = msg.get("seed") + "/" + msg.get("seat") + "/" + msg.get("role");
        long h = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return h;
    }

    void send(Object value) {
        StringBuilder sb = new StringBuilder();
        Json.write(value, sb);
        out.write(sb.append('\n').toString());
        out.flush();
    }

    static Map<String, Object> map(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    /** Just enough JSON (RFC 8259): objects, arrays, strings, numbers (Long or BigDecimal), true, false, null. */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json p = new Json(text);
            p.space();
            Object value = p.value();
            p.space();
            if (p.i != p.s.length()) {
                throw p.error("text after the value");
            }
            return value;
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> object(Object value) {
            if (!(value instanceof Map)) {
                throw new IllegalArgumentException("not a JSON object");
            }
            return (Map<String, Object>) value;
        }

        @SuppressWarnings("unchecked")
        static List<Object> array(Object value) {
            if (!(value instanceof List)) {
                throw new IllegalArgumentException("not a JSON array");
            }
            return (List<Object>) value;
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON: " + what + " at " + i);
        }

        private void space() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
        }

        private Object value() {
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    space();
                    if (peek('}')) {
                        return m;
                    }
                    do {
                        space();
                        String key = string();
                        space();
                        expect(':');
                        space();
                        m.put(key, value());
                        space();
                    } while (peek(','));
                    expect('}');
                    return m;
                }
                case '[': {
                    i++;
                    List<Object> a = new ArrayList<>();
                    space();
                    if (peek(']')) {
                        return a;
                    }
                    do {
                        space();
                        a.add(value());
                        space();
                    } while (peek(','));
                    expect(']');
                    return a;
                }
                case '"':
                    return string();
                case 't':
                    return word("true", Boolean.TRUE);
                case 'f':
                    return word("false", Boolean.FALSE);
                case 'n':
                    return word("null", null);
                default:
                    return number();
            }
        }

        private boolean peek(char c) {
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
        }

        private Object word(String w, Object value) {
            if (!s.startsWith(w, i)) {
                throw error("unexpected character");
            }
            i += w.length();
            return value;
        }

        private Object number() {
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            String text = s.substring(start, i);
            if (text.isEmpty()) {
                throw error("unexpected character");
            }
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException notLong) {
                return new BigDecimal(text); // a fraction, an exponent, or an integer past 64 bits
            }
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (i >= s.length()) {
                    throw error("unterminated escape");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'n': sb.append('\n'); break;
                    case 'r': sb.append('\r'); break;
                    case 't': sb.append('\t'); break;
                    case 'u':
                        if (i + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: sb.append(e); // \" \\ \/
                }
            }
        }

        static void write(Object v, StringBuilder sb) {
            if (v == null) {
                sb.append("null");
            } else if (v instanceof String) {
                quote((String) v, sb);
            } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer || v instanceof BigDecimal) {
                sb.append(v);
            } else if (v instanceof Map) {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    quote(String.valueOf(e.getKey()), sb);
                    sb.append(':');
                    write(e.getValue(), sb);
                }
                sb.append('}');
            } else if (v instanceof List) {
                sb.append('[');
                boolean first = true;
                for (Object x : (List<?>) v) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    write(x, sb);
                }
                sb.append(']');
            } else {
                throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
            }
        }

        static void quote(String text, StringBuilder sb) {
            sb.append('"');
            for (int k = 0; k < text.length(); k++) {
                char c = text.charAt(k);
                switch (c) {
                    case '"': sb.append("\\\""); break;
                    case '\\': sb.append("\\\\"); break;
                    case '\n': sb.append("\\n"); break;
                    case '\r': sb.append("\\r"); break;
                    case '\t': sb.append("\\t"); break;
                    default:
                        if (c < 0x20) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                }
            }
            sb.append('"');
        }
    }
}
