/** Names an attacker would try as a namespace or an id. */
export const HOSTILE_NAMES = ['.', '..', '...', '%2e%2e', '%2E%2E%2F', '..%2f..', '/', '\\', '..\\..', 'a/../..', '../../etc', '\0', 'a\0b', '.data', 'x'.repeat(5000), ' ', '\u202e..'];
