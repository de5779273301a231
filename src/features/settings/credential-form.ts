import { StoreCredentialRequest } from '../../../contract/credentials.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';

/** The add-a-credential form, checked with the contract's own request schema. */
export interface CredentialValues {
  name: string;
  value: string;
}

export const credentialDefaults: CredentialValues = { name: '', value: '' };

// Sent exactly as typed: a value's spaces are part of the secret, and the name's rules say no spaces.
export const credentialResolver = contractResolver(StoreCredentialRequest, (v: CredentialValues) => ({ name: v.name, value: v.value }));

export const CREDENTIAL_FIELDS = ['name', 'value'] as const;
