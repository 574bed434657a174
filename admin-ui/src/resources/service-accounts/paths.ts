/** The list of service accounts; one account is at `/service-accounts/:id`. */
export const SERVICE_ACCOUNTS_PATH = '/service-accounts';
