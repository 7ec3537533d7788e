// zoneoracle's own do-nothing stand-in for the error-reporting client that
// Forge's game code calls (breadcrumbs and extras only). Debian has no
// io.sentry package; nothing is reported anywhere.
package io.sentry;

public final class Sentry {
    private Sentry() {}
    public static void addBreadcrumb(Breadcrumb b) {}
    public static void addBreadcrumb(Breadcrumb b, Object hint) {}
    public static void setExtra(String key, String value) {}
    public static void removeExtra(String key) {}
    public static void captureMessage(String message) {}
}
