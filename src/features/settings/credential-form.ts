import { splitOrigins, StoreCredentialRequest } from '../../../contract/credentials.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';

/** The add-a-credential form, checked with the contract's own request schema. */
export interface CredentialValues {
  name: string;
  value: string;
  /** One origin a line (commas work too); empty: any page. */
  allowed_origins: string;
}

export const credentialDefaults: CredentialValues = { name: '', value: '', allowed_origins: '' };

// Sent exactly as typed: a value's spaces are part of the secret, and the name's rules say no spaces.
// The origins always go as a list, an empty one included: what the form shows is what is stored.
export const credentialResolver = contractResolver(StoreCredentialRequest, (v: CredentialValues) => ({
  name: v.name,
  value: v.value,
  allowed_origins: splitOrigins(v.allowed_origins),
}));

export const CREDENTIAL_FIELDS = ['name', 'value', 'allowed_origins'] as const;
