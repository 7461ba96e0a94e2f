/**
 * A self-signed certificate for `localhost`, valid until 2126, for a loopback HTTPS server. It
 * is fixed text rather than generated per run: @peculiar/x509 needs a reflect-metadata polyfill
 * the workspace does not have, and these tests only need "a certificate no one trusts".
 * Made with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 36500
 *   -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost"
 */
export const SELF_SIGNED_CERT = `
-----BEGIN CERTIFICATE-----
MIIBlTCCATugAwIBAgIUcU+PHn5U2/xM/EgR51lG127EfHowCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNjEwNTMyMloYDzIxMjYxMTAy
MTA1MzIyWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARi5/GZXWiA9u7/fwtQw/T2WPSB7bUBDlEbr46BejQN0PFieCOSunTp
T0B2gXlfirfJOABQYnQxTS6bScdR4yV0o2kwZzAdBgNVHQ4EFgQUi7tb6UvRAiZQ
92XsXmOPH2r5+YkwHwYDVR0jBBgwFoAUi7tb6UvRAiZQ92XsXmOPH2r5+YkwDwYD
VR0TAQH/BAUwAwEB/zAUBgNVHREEDTALgglsb2NhbGhvc3QwCgYIKoZIzj0EAwID
SAAwRQIgNJ+j5bg5w6u0d3qtLuo4OZpiltRJev/pCKUJxKuxEUwCIQDyIEDYcfwT
DzZNTzNRUCdJjpoUFzEW3fztsHjIboV8xg==
-----END CERTIFICATE-----
`;

/** Its private key: a test fixture, protects nothing. */
export const SELF_SIGNED_KEY = `
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgqmd2L74mcoZKLzE3
RJ4BTIjZrQACAzQ4hDpFfBHdHs6hRANCAARi5/GZXWiA9u7/fwtQw/T2WPSB7bUB
DlEbr46BejQN0PFieCOSunTpT0B2gXlfirfJOABQYnQxTS6bScdR4yV0
-----END PRIVATE KEY-----
`;
