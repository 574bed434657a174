import ApartmentIcon from '@mui/icons-material/Apartment';
import { BusinessUnitList } from './BusinessUnitList';
import { BusinessUnitCreate } from './BusinessUnitCreate';
import { BusinessUnitEdit } from './BusinessUnitEdit';

export const businessUnits = { list: BusinessUnitList, create: BusinessUnitCreate, edit: BusinessUnitEdit, icon: ApartmentIcon };
